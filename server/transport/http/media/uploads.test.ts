import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_MAX_BYTES, THEME_MAX_BYTES } from '../../../domain/media/limits.js';
import { objectIdOf, type MediaClient } from '../../../domain/media/testing/client.js';
import { smallMp4, tinyPng } from '../../../domain/media/testing/fixtures.js';
import { STORES, startMediaTestServer, type MediaTestServer } from '../../../domain/media/testing/media-server.js';

describe.each(STORES)('uploads on the %s store', (store) => {
  let t: MediaTestServer;
  let client: MediaClient;

  beforeAll(async () => {
    t = await startMediaTestServer(store);
    client = t.client;
  });
  afterAll(() => t.close());

  it('hands out an upload URL whose last path segment is the object id', async () => {
    const url = await client.uploadURL();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(objectIdOf(url)).toMatch(/^[0-9a-f-]{36}$/);
    if (store === 'local') expect(new URL(url).pathname).toBe(`/api/uploads/${objectIdOf(url)}`);
  });

  it('round-trips a PNG and a small MP4 byte for byte, with the sniffed content type', async () => {
    for (const [data, type] of [[tinyPng(), 'image/png'], [smallMp4(), 'video/mp4']] as const) {
      // The declared type is deliberately wrong: what is served comes from the bytes.
      const id = await client.upload(data, 'application/octet-stream');
      const res = await client.media(id);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.body.equals(data)).toBe(true);
    }
  });

  it('refuses a text file sent as image/png with 415 and stores nothing', async () => {
    const before = client.stored();
    const url = await client.uploadURL();
    const put = await client.put(url, Buffer.from('just some text, not a picture\n'.repeat(200)), 'image/png');
    const id = objectIdOf(url);
    if (store === 'local') {
      expect(put.status).toBe(415);
      expect(JSON.parse(put.text)).toEqual({ message: 'Only images and videos can be uploaded' });
    } else {
      // Bytes go straight to S3; the check happens on first use, and deletes them.
      expect(put.status).toBe(200);
      expect((await client.media(id)).status).toBe(415);
    }
    expect((await client.media(id)).status).toBe(404);
    const created = await client.call('POST', '/api/media', { filePath: `/media/${id}`, fileType: 'image' });
    expect(created.status).toBe(400);
    expect(client.stored()).toEqual(before);
  });

  it('refuses a file above 50 MB with 413, leaving nothing stored', async () => {
    const before = client.stored();
    const url = await client.uploadURL();
    const tooBig = Buffer.concat([tinyPng(), Buffer.alloc(MEDIA_MAX_BYTES)]);
    const put = await client.put(url, tooBig, 'image/png');
    if (store === 'local') {
      expect(put.status).toBe(413);
    } else {
      expect((await client.media(objectIdOf(url))).status).toBe(413);
    }
    expect(client.stored()).toEqual(before);
  });

  it('limits theme images to 10 MB', async () => {
    const url = await client.uploadURL('theme');
    const put = await client.put(url, Buffer.concat([tinyPng(), Buffer.alloc(THEME_MAX_BYTES)]), 'image/png');
    const status = store === 'local' ? put.status : (await client.media(objectIdOf(url))).status;
    expect(status).toBe(413);
    // Just under the theme limit is fine.
    const ok = await client.upload(Buffer.concat([tinyPng(), Buffer.alloc(THEME_MAX_BYTES - 2000)]), 'image/png', 'theme');
    expect((await client.media(ok)).status).toBe(200);
  });

  it('accepts SVG (sniffed as image/svg+xml)', async () => {
    const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>');
    const id = await client.upload(svg, 'image/svg+xml', 'theme');
    const res = await client.media(id);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.text).toBe(svg.toString());
  });

  it('upload URLs are single-use: a used URL cannot replace what was uploaded', async () => {
    const url = await client.uploadURL();
    const id = objectIdOf(url);
    expect((await client.put(url, tinyPng(), 'image/png')).status).toBe(200);
    expect((await client.media(id)).status).toBe(200);
    const again = await client.put(url, smallMp4(), 'video/mp4');
    if (store === 'local') {
      expect(again.status).toBe(403);
      expect(JSON.parse(again.text).message).toBe('The upload link has already been used');
    }
    // On S3 the bucket takes the PUT, but only into incoming/, which nothing reads any more.
    const served = await client.media(id);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.body.equals(tinyPng())).toBe(true);
  });

  it('accepts the form POST of Uppy\'s s3/params path', async () => {
    const params = await client.call('GET', '/api/media/s3/params?filename=poster.png&type=image%2Fpng&metadata%5Bkind%5D=media');
    expect(params.status).toBe(200);
    expect(params.body.method).toBe('POST');
    const { url, fields } = params.body as { url: string; fields: Record<string, string> };
    expect(fields.key).toBeTruthy();
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const png = tinyPng(40, 40);
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'poster.png');
    const posted = await client.http(url, { method: 'POST', body: form });
    expect(posted.status).toBeLessThan(300);
    // Uppy's location: the form URL plus the key; its last segment is the object id.
    const id = objectIdOf(`${url.replace(/\/+$/, '')}/${fields.key}`);
    const res = await client.media(id);
    expect(res.status).toBe(200);
    expect(res.body.equals(png)).toBe(true);
  });
});

describe('signed upload URLs on the local store', () => {
  let t: MediaTestServer;
  let client: MediaClient;

  beforeAll(async () => {
    t = await startMediaTestServer('local');
    client = t.client;
  });
  afterAll(() => t.close());

  it('answers 403 to a tampered or expired signature, without an admin', async () => {
    const url = new URL(await client.uploadURL());
    const tampered = new URL(url);
    tampered.searchParams.set('signature', `${url.searchParams.get('signature')!.slice(0, -2)}xx`);
    expect((await client.put(tampered.href, tinyPng(), 'image/png')).status).toBe(403);

    const otherObject = new URL(url);
    otherObject.pathname = `/api/uploads/${crypto.randomUUID()}`;
    expect((await client.put(otherObject.href, tinyPng(), 'image/png')).status).toBe(403);

    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 1000));
    expect((await client.put(longer.href, tinyPng(), 'image/png')).status).toBe(403);

    // A correctly signed URL whose time has passed.
    const signer = (t.server.server.deps.mediaStore as import('../../../domain/media/local-store.js').LocalMediaStore).signer;
    const id = objectIdOf(url.href);
    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = `${url.origin}/api/uploads/${id}?expires=${past}&signature=${signer.sign('put', [id], past)}`;
    const res = await client.put(expired, tinyPng(), 'image/png');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).message).toBe('The upload link has expired');

    // The genuine URL still works: refusals never consumed it.
    expect((await client.put(url.href, tinyPng(), 'image/png')).status).toBe(200);
  });

  it('an interrupted upload leaves nothing behind, and the URL can be used again', async () => {
    const url = new URL(await client.uploadURL());
    await new Promise<void>((resolve) => {
      const req = http.request(url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-length': String(4 * 1024 * 1024) } });
      req.on('error', () => resolve());
      req.write(smallMp4(512 * 1024));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    // Give the server a moment to notice the broken connection and clean up.
    await new Promise((r) => setTimeout(r, 300));
    expect(client.stored().partial).toEqual([]);
    expect((await client.media(objectIdOf(url.href))).status).toBe(404);
    const retry = await client.put(url.href, tinyPng(), 'image/png');
    expect(retry.status).toBe(200);
  });

  it('refuses an oversize upload as it streams, before the whole body has been sent', async () => {
    const url = new URL(await client.uploadURL());
    const result = await new Promise<{ status: number; sentBytes: number }>((resolve, reject) => {
      let sent = 0;
      // Chunked, so no Content-Length warns the server in advance: the limit must hold mid-stream.
      const req = http.request(url, { method: 'PUT', headers: { 'content-type': 'image/png', 'transfer-encoding': 'chunked' } });
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode!, sentBytes: sent });
        req.destroy();
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024);
      const pump = () => {
        while (sent < 200 * 1024 * 1024) {
          const data = sent === 0 ? Buffer.concat([tinyPng(), chunk]) : chunk;
          sent += data.length;
          if (!req.write(data)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(result.sentBytes).toBeLessThan(120 * 1024 * 1024);
    expect(client.stored().partial).toEqual([]);
  });
});

describe('upload calls need an admin', () => {
  let t: MediaTestServer;
  beforeAll(async () => {
    t = await startMediaTestServer('local');
  });
  afterAll(() => t.close());

  it('answers 401 to every issuing call without a token', async () => {
    const anonymous = new (await import('../../../testing/api.js')).TestApi(t.server);
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/media/upload'],
      ['GET', '/api/media/s3/params?filename=a.png&type=image%2Fpng'],
      ['POST', '/api/media/s3/multipart', { filename: 'a.mp4', type: 'video/mp4', metadata: {} }],
      ['GET', '/api/media/s3/multipart/abc?key=k'],
      ['GET', '/api/media/s3/multipart/abc/1?key=k'],
      ['POST', '/api/media/s3/multipart/abc/complete?key=k', { parts: [{ PartNumber: 1, ETag: 'x' }] }],
      ['DELETE', '/api/media/s3/multipart/abc?key=k'],
      ['GET', '/api/media/s3/sts'],
    ];
    for (const [method, url, body] of calls) {
      const res = await anonymous.request(method as 'GET', url, body);
      expect(res.status, `${method} ${url}`).toBe(401);
    }
  });
});
