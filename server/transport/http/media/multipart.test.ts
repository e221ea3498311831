import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PARTS, MIN_PART_BYTES } from '../../../domain/media/limits.js';
import { objectIdOf, type MediaClient } from '../../../domain/media/testing/client.js';
import { mp4Header, smallMp4, writeLargeMp4 } from '../../../domain/media/testing/fixtures.js';
import { STORES, startMediaTestServer, type MediaTestServer } from '../../../domain/media/testing/media-server.js';

/** Above Uppy's 100 MB multipart threshold. */
const LARGE_FILE_BYTES = 105 * 1024 * 1024;

/**
 * The calls Uppy's aws-s3 plugin makes with `companionEndpoint: '/api/media'`, in its order and
 * shapes (see @uppy/aws-s3 src/s3-client/CompanionS3.ts): create, sign and PUT each part, complete.
 */
async function createUpload(client: MediaClient, metadata: Record<string, string> = {}) {
  const created = await client.call('POST', '/api/media/s3/multipart', { filename: 'trailer.mp4', type: 'video/mp4', metadata });
  expect(created.status).toBe(200);
  expect(created.body).toEqual({ key: expect.any(String), uploadId: expect.any(String) });
  return created.body as { key: string; uploadId: string };
}

const q = (key: string) => `?${new URLSearchParams({ key })}`;

async function putPart(client: MediaClient, upload: { key: string; uploadId: string }, partNumber: number, data: Buffer) {
  const signed = await client.call('GET', `/api/media/s3/multipart/${encodeURIComponent(upload.uploadId)}/${partNumber}${q(upload.key)}`);
  expect(signed.status).toBe(200);
  const put = await client.put(signed.body.url, data);
  expect(put.status).toBe(200);
  const etag = put.headers.get('etag')!.replace(/^"+|"+$/g, '');
  expect(etag).toBe(createHash('md5').update(data).digest('hex'));
  return etag;
}

function complete(client: MediaClient, upload: { key: string; uploadId: string }, parts: { PartNumber: number; ETag: string }[]) {
  return client.call('POST', `/api/media/s3/multipart/${encodeURIComponent(upload.uploadId)}/complete${q(upload.key)}`, { parts });
}

async function readPart(file: string, start: number, length: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, start);
    return buffer;
  } finally {
    await handle.close();
  }
}

describe.each(STORES)('multipart uploads through the companion endpoints on the %s store', (store) => {
  let t: MediaTestServer;
  let client: MediaClient;
  let tempDir: string;

  beforeAll(async () => {
    t = await startMediaTestServer(store);
    client = t.client;
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-multipart-'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(tempDir, { recursive: true, force: true });
  });

  it('uploads a file above 100 MB in 5 MB parts; the served bytes match its SHA-256', async () => {
    const file = path.join(tempDir, 'trailer.mp4');
    const expectedSha = await writeLargeMp4(file, LARGE_FILE_BYTES);
    const upload = await createUpload(client);

    // Uppy's chunking: at least 5 MB, more only when 10000 parts would not do.
    const partSize = Math.max(MIN_PART_BYTES, Math.ceil(LARGE_FILE_BYTES / MAX_PARTS));
    const parts: { PartNumber: number; ETag: string }[] = [];
    for (let start = 0, n = 1; start < LARGE_FILE_BYTES; start += partSize, n++) {
      const data = await readPart(file, start, Math.min(partSize, LARGE_FILE_BYTES - start));
      parts.push({ PartNumber: n, ETag: await putPart(client, upload, n, data) });
    }
    expect(parts).toHaveLength(21);

    // Listing (Uppy's resume) returns what arrived.
    const listed = await client.call('GET', `/api/media/s3/multipart/${encodeURIComponent(upload.uploadId)}${q(upload.key)}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(21);
    expect(listed.body[0]).toEqual({ PartNumber: 1, ETag: parts[0].ETag, Size: partSize });

    const done = await complete(client, upload, parts);
    expect(done.status).toBe(200);
    expect(done.body.key).toBe(upload.key);
    const objectId = objectIdOf(done.body.location);
    expect(done.body.location).toBe(`${t.server.baseUrl}/media/${objectId}`);

    const res = await fetch(`${t.server.baseUrl}/media/${objectId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(Number(res.headers.get('content-length'))).toBe(LARGE_FILE_BYTES);
    const hash = createHash('sha256');
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
    expect(hash.digest('hex')).toBe(expectedSha);
    expect(client.stored().partial).toEqual([]);

    // It can become a library item like any upload.
    const media = await client.call('POST', '/api/media', { filePath: `/media/${objectId}`, fileType: 'video', duration: 30 });
    expect(media.status).toBe(201);
  }, 60_000);

  it('aborting removes the parts; the upload is gone afterwards', async () => {
    const before = client.stored();
    const upload = await createUpload(client);
    await putPart(client, upload, 1, Buffer.concat([mp4Header(), Buffer.alloc(MIN_PART_BYTES)]));
    const aborted = await client.call('DELETE', `/api/media/s3/multipart/${encodeURIComponent(upload.uploadId)}${q(upload.key)}`);
    expect(aborted.status).toBe(204);
    expect(client.stored()).toEqual(before);
    const sign = await client.call('GET', `/api/media/s3/multipart/${encodeURIComponent(upload.uploadId)}/2${q(upload.key)}`);
    expect(sign.status).toBe(404);
  });

  it('refuses to complete parts that are not media (415), removing them', async () => {
    const before = client.stored();
    const upload = await createUpload(client);
    const html = Buffer.from('<html>not a video</html>'.repeat(100));
    if (store === 'local') {
      // Part 1 reaches this server, which sniffs it at once and drops the whole upload.
      const signed = await client.call('GET', `/api/media/s3/multipart/${upload.uploadId}/1${q(upload.key)}`);
      expect((await client.put(signed.body.url, html)).status).toBe(415);
      expect((await complete(client, upload, [{ PartNumber: 1, ETag: 'x' }])).status).toBe(404);
    } else {
      const etag = await putPart(client, upload, 1, html);
      const done = await complete(client, upload, [{ PartNumber: 1, ETag: etag }]);
      expect(done.status).toBe(415);
    }
    expect(client.stored()).toEqual(before);
  });

  it('refuses uploads above the kind\'s limit with 413', async () => {
    const before = client.stored();
    const upload = await createUpload(client, { kind: 'theme' });
    const first = await putPart(client, upload, 1, Buffer.concat([mp4Header(), Buffer.alloc(MIN_PART_BYTES)]));
    const data = Buffer.alloc(MIN_PART_BYTES + 1);
    const signed = await client.call('GET', `/api/media/s3/multipart/${encodeURIComponent(upload.uploadId)}/2${q(upload.key)}`);
    const put = await client.put(signed.body.url, data);
    if (store === 'local') {
      // Parts reaching this server count against the limit as they stream.
      expect(put.status).toBe(413);
    } else {
      // S3 takes the part; completing checks the joined size.
      const second = put.headers.get('etag')!.replace(/"/g, '');
      const done = await complete(client, upload, [{ PartNumber: 1, ETag: first }, { PartNumber: 2, ETag: second }]);
      expect(done.status).toBe(413);
      expect(client.stored()).toEqual(before);
    }
  });

  it('answers 404 for an unknown upload and 400 for a bad part list', async () => {
    const unknown = await client.call('GET', `/api/media/s3/multipart/nope/1${q(crypto.randomUUID())}`);
    expect(unknown.status).toBe(404);
    const upload = await createUpload(client);
    const bad = await complete(client, upload, [{ PartNumber: 2, ETag: 'a' }, { PartNumber: 1, ETag: 'b' }]);
    expect(bad.status).toBe(400);
    const missing = await complete(client, upload, []);
    expect(missing.status).toBe(400);
  });

  it('s3/sts says temporary credentials are not offered', async () => {
    const sts = await client.call('GET', '/api/media/s3/sts');
    expect(sts.status).toBe(501);
    expect(sts.body.message).toMatch(/not offered/);
  });
});

describe('multipart part rules on the local store', () => {
  let t: MediaTestServer;
  beforeAll(async () => {
    t = await startMediaTestServer('local');
  });
  afterAll(() => t.close());

  it('every part but the last must be at least 5 MB; a signed part URL is tied to its part', async () => {
    const client = t.client;
    const upload = await createUpload(client);
    const one = await putPart(client, upload, 1, smallMp4(1024));
    const two = await putPart(client, upload, 2, Buffer.alloc(100));
    const done = await complete(client, upload, [{ PartNumber: 1, ETag: one }, { PartNumber: 2, ETag: two }]);
    expect(done.status).toBe(400);
    expect(done.body.message).toBe('Every part except the last must be at least 5 MB');

    const signed = new URL((await client.call('GET', `/api/media/s3/multipart/${upload.uploadId}/3${q(upload.key)}`)).body.url);
    signed.pathname = signed.pathname.replace(/\/3$/, '/4');
    expect((await client.put(signed.href, Buffer.alloc(10))).status).toBe(403);
  });
});
