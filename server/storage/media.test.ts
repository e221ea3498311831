import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../testing/databases.js';
import { mediaPath } from './media.js';
import { openStore, type Store } from './store.js';

describe.each(DIALECTS)('MediaRepository on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  const newSession = (title: string) =>
    store.sessions.create({ title, auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null }, 'draft');
  const newMedia = (objectId: string, duration = 3) =>
    store.media.create({ filePath: mediaPath(objectId), phoneFilePath: null, fileType: 'image', duration, promotionalLink: null });

  it('lists media for a session in assignment order, and reports who refers to an object', async () => {
    const session = await newSession('Evening');
    const [a, b, c] = [await newMedia('obj-a', 5), await newMedia('obj-b', 7), await newMedia('obj-c', 9)];
    expect(await store.media.assign(session.id, c.id)).toBe(true);
    expect(await store.media.assign(session.id, a.id)).toBe(true);
    expect(await store.media.assign(session.id, a.id)).toBe(false);
    expect((await store.media.listForSession(session.id)).map((m) => [m.id, m.duration])).toEqual([[c.id, 9], [a.id, 5]]);
    expect(await store.media.assignments(session.id)).toEqual([{ mediaId: c.id, sessionId: session.id }, { mediaId: a.id, sessionId: session.id }]);

    expect(await store.media.isObjectReferenced('obj-b')).toBe(true);
    await store.media.delete(b.id);
    expect(await store.media.isObjectReferenced('obj-b')).toBe(false);
    await store.sessions.update(session.id, { theme: { logo: mediaPath('obj-b') } });
    expect(await store.media.isObjectReferenced('obj-b')).toBe(true);

    // Deleting media removes its assignments (foreign key cascade).
    await store.media.delete(c.id);
    expect(await store.media.assignments(session.id)).toEqual([{ mediaId: a.id, sessionId: session.id }]);
    expect(await store.media.unassign(session.id, a.id)).toBe(true);
    expect(await store.media.unassign(session.id, a.id)).toBe(false);
  });

  it('keeps the assignment order of media assigned within the same millisecond', async () => {
    const session = await newSession('Back to back');
    const media = [];
    for (let i = 0; i < 12; i++) media.push(await newMedia(`obj-burst-${i}`));
    // Newest first: ordered by the media's age, the list would come out reversed.
    const order = [...media].reverse();
    for (const m of order) expect(await store.media.assign(session.id, m.id)).toBe(true);
    expect((await store.media.listForSession(session.id)).map((m) => m.id)).toEqual(order.map((m) => m.id));
  });

  it('lists media uploaded within one millisecond newest first, in the order they were added', async () => {
    const added: string[] = [];
    for (let i = 0; i < 12; i++) added.push((await newMedia(`obj-batch-${i}`)).id);
    const listed = (await store.media.list()).map((m) => m.id).filter((id) => added.includes(id));
    expect(listed).toEqual([...added].reverse());
  });

  it('tracks stored objects: one claim wins, release and ready, sizes above 2 GB, expiry', async () => {
    const objects = store.media.objects;
    const object = await objects.createPending({ kind: 'large', method: 'single', declaredType: 'video/mp4', expiresAt: '2000-01-01T00:00:00.000Z' });
    expect(object).toMatchObject({ status: 'pending', kind: 'large', size: null });
    const claims = await Promise.all([objects.claim(object.id), objects.claim(object.id)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    await objects.release(object.id);
    expect((await objects.get(object.id))?.status).toBe('pending');
    expect((await objects.listExpired()).map((o) => o.id)).toContain(object.id);

    await objects.markReady(object.id, { contentType: 'video/mp4', size: 3 * 1024 ** 3, etag: 'abc-2' });
    expect(await objects.get(object.id)).toMatchObject({ status: 'ready', contentType: 'video/mp4', size: 3 * 1024 ** 3, etag: 'abc-2' });
    expect(await objects.claim(object.id)).toBe(false);
    // Finished objects never expire.
    expect((await objects.listExpired()).map((o) => o.id)).not.toContain(object.id);
    await objects.delete(object.id);
    expect(await objects.get(object.id)).toBeUndefined();
  });
});
