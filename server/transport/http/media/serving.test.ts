import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaClient } from '../../../domain/media/testing/client.js';
import { smallMp4, tinyPng } from '../../../domain/media/testing/fixtures.js';
import { STORES, startMediaTestServer, type MediaTestServer } from '../../../domain/media/testing/media-server.js';

describe.each(STORES)('serving /media/{id} from the %s store', (store) => {
  let t: MediaTestServer;
  let client: MediaClient;
  const video = smallMp4(256 * 1024);
  let videoId: string;

  beforeAll(async () => {
    t = await startMediaTestServer(store);
    client = t.client;
    videoId = await client.upload(video, 'video/mp4');
  });
  afterAll(() => t.close());

  it('serves with its type, a strong ETag, year-long immutable caching and nosniff, to anyone', async () => {
    const res = await client.media(videoId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('returns exactly the bytes a Range asks for (206)', async () => {
    for (const [header, start, end] of [
      ['bytes=0-0', 0, 0],
      ['bytes=1000-1999', 1000, 1999],
      [`bytes=${video.length - 10}-`, video.length - 10, video.length - 1],
      ['bytes=-300', video.length - 300, video.length - 1],
    ] as const) {
      const res = await client.media(videoId, { range: header });
      expect(res.status, header).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${video.length}`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(res.body.equals(video.subarray(start, end + 1)), header).toBe(true);
    }
  });

  it('answers 416 with the size when the range starts past the end', async () => {
    const res = await client.media(videoId, { range: `bytes=${video.length}-` });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${video.length}`);
  });

  it('answers 304 to If-None-Match with the current ETag, and ignores a stale If-Range', async () => {
    const etag = (await client.media(videoId)).headers.get('etag')!;
    const cached = await client.media(videoId, { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    expect(cached.headers.get('etag')).toBe(etag);
    expect((await client.media(videoId, { 'if-none-match': '"something-else"' })).status).toBe(200);

    const stale = await client.media(videoId, { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(video.length);
    const current = await client.media(videoId, { range: 'bytes=0-9', 'if-range': etag });
    expect(current.status).toBe(206);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await client.media(videoId, {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(res.body.length).toBe(0);
  });

  it('serves SVG under a sandboxing Content-Security-Policy, so its scripts cannot run in our origin', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');
    const id = await client.upload(svg, 'image/svg+xml', 'theme');
    const res = await client.media(id);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 404 for unknown ids and for uploads not made yet', async () => {
    expect((await client.media(crypto.randomUUID())).status).toBe(404);
    expect((await client.media('..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    const url = await client.uploadURL();
    const pendingId = new URL(url).pathname.split('/').pop()!;
    const res = await client.media(pendingId);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({ message: 'Media not found' });
    // A file lost from storage is a 404 that no cache keeps.
    const lost = await client.upload(tinyPng(), 'image/png');
    expect((await client.media(lost)).status).toBe(200);
    await t.server.server.deps.mediaStore.delete(lost);
    const gone = await client.media(lost);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('cache-control')).toBeNull();
    // An image served for the display works the same way.
    const png = tinyPng();
    expect((await client.media(await client.upload(png, 'image/png'))).body.equals(png)).toBe(true);
  });
});
