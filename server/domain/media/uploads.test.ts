import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploadsFor } from '../../transport/http/media/deps.js';
import { MediaUploads } from './uploads.js';
import { mp4Header, tinyPng } from './testing/fixtures.js';
import { objectIdOf } from './testing/client.js';
import { STORES, startMediaTestServer, type MediaTestServer } from './testing/media-server.js';
import { MIN_PART_BYTES } from './limits.js';

describe.each(STORES)('clearing expired uploads on the %s store', (store) => {
  let t: MediaTestServer;

  beforeAll(async () => {
    t = await startMediaTestServer(store);
  });
  afterAll(() => t.close());

  const expireAll = () =>
    t.server.server.deps.store.db
      .updateTable('media_objects' as never)
      .set({ expires_at: '2000-01-01T00:00:00.000Z' } as never)
      .where('status' as never, '!=', 'ready' as never)
      .execute();

  /** A theme upload the admin finished, shown as a session's logo, its link expired: its object id. */
  const expiredThemeUpload = async () => {
    const { client } = t;
    const url = await client.uploadURL('theme');
    expect((await client.put(url, tinyPng(), 'image/png')).status).toBe(200);
    const id = objectIdOf(url);
    const session = (await client.call('POST', '/api/admin/sessions', { title: 'Themed' })).body;
    expect((await client.call('PUT', `/api/admin/sessions/${session.id}`, { theme: { logo: `/media/${id}` } })).status).toBe(200);
    await expireAll();
    return id;
  };

  it('removes unfinished uploads whose links expired, and keeps finished ones', async () => {
    const { client } = t;
    const uploads = uploadsFor(t.server.server.deps, t.server.server.app.log);
    const before = client.stored();
    const kept = await client.upload(tinyPng(), 'image/png');
    // Served once, so finished on S3 too (a direct S3 upload is checked on first use).
    expect((await client.media(kept)).status).toBe(200);

    const created = await client.call('POST', '/api/media/s3/multipart', { filename: 'a.mp4', type: 'video/mp4', metadata: {} });
    const { key, uploadId } = created.body;
    const signed = await client.call('GET', `/api/media/s3/multipart/${uploadId}/1?key=${key}`);
    expect((await client.put(signed.body.url, Buffer.concat([mp4Header(), Buffer.alloc(MIN_PART_BYTES)]))).status).toBe(200);
    const unused = objectIdOf(await client.uploadURL());
    expect(client.stored().partial.length).toBeGreaterThan(0);

    await expireAll();
    await uploads.sweep(Date.now() + 3_600_000);
    expect(client.stored().partial).toEqual(before.partial);
    expect(client.stored().objects).toContain(kept);
    const objects = t.server.server.deps.store.media.objects;
    expect(await objects.get(key)).toBeUndefined();
    expect(await objects.get(unused)).toBeUndefined();
    expect((await objects.get(kept))?.status).toBe('ready');
  });

  it('adopts, rather than removes, an expired upload a session theme already shows', async () => {
    const uploads = uploadsFor(t.server.server.deps, t.server.server.app.log);
    const id = await expiredThemeUpload();
    await uploads.sweep(Date.now() + 7_200_000);
    const res = await t.client.media(id);
    expect(res.status).toBe(200);
    expect(res.body.equals(tinyPng())).toBe(true);
  });

  // Only a direct S3 upload is adopted by the sweep (a local one is stored as it arrives).
  if (store === 's3') {
    it('keeps an expired upload a theme shows when the bucket fails while it is adopted, and adopts it at the next sweep', async () => {
      const { deps } = t.server.server;
      const failures: unknown[] = [];
      const uploads = new MediaUploads(deps.store.media, deps.mediaStore, (err) => failures.push(err));
      const id = await expiredThemeUpload();

      const outage = vi.spyOn(deps.mediaStore, 'adoptDirectUpload').mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
      try {
        await uploads.sweep(Date.now() + 7_200_000);
      } finally {
        outage.mockRestore();
      }
      expect(failures).toHaveLength(1);
      expect((await deps.store.media.objects.get(id))?.status).toBe('pending');

      await uploads.sweep(Date.now() + 14_400_000);
      expect(failures).toHaveLength(1);
      const res = await t.client.media(id);
      expect(res.status).toBe(200);
      expect(res.body.equals(tinyPng())).toBe(true);
    });
  }
});
