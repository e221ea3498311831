import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import type { TestDialect } from '../../../testing/databases.js';
import type { MediaClient } from '../../../domain/media/testing/client.js';
import { smallMp4, tinyPng } from '../../../domain/media/testing/fixtures.js';
import { startMediaTestServer, type MediaTestServer, type StoreKind } from '../../../domain/media/testing/media-server.js';

const COMBINATIONS: [TestDialect, StoreKind][] = [
  ['sqlite', 'local'],
  ['postgres', 'local'],
  ['sqlite', 's3'],
  ['postgres', 's3'],
];

describe.each(COMBINATIONS)('media library on %s with the %s store', (dialect, store) => {
  let t: MediaTestServer;
  let client: MediaClient;
  const changed: string[] = [];

  beforeAll(async () => {
    t = await startMediaTestServer(store, dialect);
    client = t.client;
    t.server.server.deps.lifecycle.on('changed', (id) => changed.push(id));
  });
  afterAll(() => t.close());

  const createSession = async (title: string) => (await client.call('POST', '/api/admin/sessions', { title })).body.id as string;
  const createMedia = async (body: Record<string, unknown>) => client.call('POST', '/api/media', body);
  const uploadPng = async () => `/media/${await client.upload(tinyPng(), 'image/png')}`;
  const uploadMp4 = async () => `/media/${await client.upload(smallMp4(), 'video/mp4')}`;

  it('starts empty', async () => {
    expect((await client.call('GET', '/api/media')).body).toEqual([]);
    expect((await client.call('GET', '/api/admin/media')).body).toEqual([]);
  });

  it('creates media from uploaded files (201), with defaults, newest first in both lists', async () => {
    const image = await createMedia({ filePath: await uploadPng(), fileType: 'image' });
    expect(image.status).toBe(201);
    expect(image.body).toEqual({
      id: expect.any(String),
      filePath: expect.stringMatching(/^\/media\/[0-9a-f-]{36}$/),
      phoneFilePath: null,
      fileType: 'image',
      duration: 3,
      promotionalLink: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    await new Promise((r) => setTimeout(r, 5));
    const video = await createMedia({
      filePath: await uploadMp4(),
      phoneFilePath: await uploadMp4(),
      fileType: 'video',
      duration: 12,
      promotionalLink: 'https://cinema.example/tickets?film=1',
    });
    expect(video.status).toBe(201);
    expect(video.body).toMatchObject({ fileType: 'video', duration: 12, promotionalLink: 'https://cinema.example/tickets?film=1' });
    const list = (await client.call('GET', '/api/media')).body;
    expect(list.map((m: { id: string }) => m.id)).toEqual([video.body.id, image.body.id]);
    expect((await client.call('GET', '/api/admin/media')).body).toEqual(list);
  });

  it('refuses media whose fields are wrong, with a message, creating nothing', async () => {
    const png = await uploadPng();
    const mp4 = await uploadMp4();
    const before = (await client.call('GET', '/api/media')).body.length;
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ fileType: 'image' }, /filePath/],
      [{ filePath: 'https://elsewhere.example/a.png', fileType: 'image' }, /filePath/],
      [{ filePath: `/media/${crypto.randomUUID()}`, fileType: 'image' }, /no uploaded file/],
      [{ filePath: png, fileType: 'video' }, /an image, not a video/],
      [{ filePath: mp4, phoneFilePath: png, fileType: 'video' }, /phoneFilePath: the uploaded file is an image/],
      [{ filePath: png, fileType: 'audio' }, /fileType/],
      [{ filePath: png, fileType: 'image', duration: 0 }, /duration/],
      [{ filePath: png, fileType: 'image', duration: 61 }, /duration/],
      [{ filePath: png, fileType: 'image', duration: 2.5 }, /duration/],
      [{ filePath: png, fileType: 'image', promotionalLink: 'javascript:alert(1)' }, /promotionalLink/],
      [{ filePath: png, fileType: 'image', promotionalLink: 'not a url' }, /promotionalLink/],
    ];
    for (const [body, message] of bad) {
      const res = await createMedia(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect((await client.call('GET', '/api/media')).body.length).toBe(before);
    // A blank link from the form means none.
    const blank = await createMedia({ filePath: png, fileType: 'image', promotionalLink: '' });
    expect(blank.body.promotionalLink).toBeNull();
  });

  it('updates the duration (1 to 60)', async () => {
    const media = (await createMedia({ filePath: await uploadPng(), fileType: 'image' })).body;
    const res = await client.call('PATCH', `/api/media/${media.id}`, { duration: 45 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...media, duration: 45 });
    for (const duration of [0, 61, 'ten']) {
      expect((await client.call('PATCH', `/api/media/${media.id}`, { duration })).status).toBe(400);
    }
    expect((await client.call('PATCH', `/api/media/${crypto.randomUUID()}`, { duration: 5 })).status).toBe(404);
  });

  it('assigns media to sessions: 201, 409 when already there, 404 for unknown ids, in order', async () => {
    const sessionId = await createSession('Friday show');
    const first = (await createMedia({ filePath: await uploadPng(), fileType: 'image' })).body;
    const second = (await createMedia({ filePath: await uploadMp4(), fileType: 'video' })).body;
    changed.length = 0;
    const url = `/api/admin/sessions/${sessionId}/media`;
    expect(await client.call('POST', url, { mediaId: second.id })).toMatchObject({ status: 201, body: { mediaId: second.id, sessionId } });
    expect((await client.call('POST', url, { mediaId: first.id })).status).toBe(201);
    expect(changed).toEqual([sessionId, sessionId]);
    const again = await client.call('POST', url, { mediaId: first.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The media is already assigned to this session');
    expect((await client.call('POST', url, { mediaId: crypto.randomUUID() })).status).toBe(404);
    expect((await client.call('POST', `/api/admin/sessions/${crypto.randomUUID()}/media`, { mediaId: first.id })).status).toBe(404);
    expect((await client.call('GET', `/api/admin/sessions/${crypto.randomUUID()}/media`)).status).toBe(404);

    expect((await client.call('GET', url)).body).toEqual([{ mediaId: second.id, sessionId }, { mediaId: first.id, sessionId }]);
    // The live game's view: media objects in assignment order.
    const forGame = await t.server.server.deps.store.media.listForSession(sessionId);
    expect(forGame.map((m) => m.id)).toEqual([second.id, first.id]);

    expect((await client.call('DELETE', `${url}/${second.id}`)).status).toBe(204);
    expect((await client.call('DELETE', `${url}/${second.id}`)).status).toBe(404);
    expect((await client.call('GET', url)).body).toEqual([{ mediaId: first.id, sessionId }]);
    expect(changed).toEqual([sessionId, sessionId, sessionId]);
  });

  it('answers 400 to ids with a NUL character (PostgreSQL answered 500; found by the fuzz)', async () => {
    const sessionId = await createSession('NUL show');
    const media = (await createMedia({ filePath: await uploadPng(), fileType: 'image' })).body;
    const calls: [string, string, unknown?][] = [
      ['PATCH', '/api/media/%00', { duration: 5 }],
      ['DELETE', '/api/media/a%00b'],
      ['GET', '/api/admin/sessions/%00/media'],
      ['POST', '/api/admin/sessions/%00/media', { mediaId: media.id }],
      ['POST', `/api/admin/sessions/${sessionId}/media`, { mediaId: 'a\u0000b' }],
      ['DELETE', `/api/admin/sessions/${sessionId}/media/%00`],
      ['DELETE', `/api/admin/sessions/%00/media/${media.id}`],
      ['GET', '/media/%00'],
      ['GET', '/api/media/s3/params?type=%00'],
      ['GET', '/api/media/s3/params?filename=a%00.png&type=image%2Fpng'],
      ['POST', '/api/media/s3/multipart', { filename: 'a.mp4', type: 'video/mp4\u0000' }],
    ];
    for (const [method, url, body] of calls) {
      const res = await client.call(method as 'GET', url, body);
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.message).toMatch(/NUL/);
    }
    expect((await client.call('GET', `/api/admin/sessions/${sessionId}/media`)).body).toEqual([]);
    expect((await client.call('GET', '/api/admin/media')).body.map((m: { id: string }) => m.id)).toContain(media.id);
  });

  it('delete removes the media from every session and question, and its files once unused', async () => {
    const [one, two] = [await createSession('Matinee'), await createSession('Late show')];
    const shared = await uploadMp4();
    const own = await uploadMp4();
    const themed = await uploadPng();
    const doomed = (await createMedia({ filePath: shared, phoneFilePath: own, fileType: 'video' })).body;
    const sibling = (await createMedia({ filePath: shared, fileType: 'video' })).body;
    const poster = (await createMedia({ filePath: themed, fileType: 'image' })).body;
    // A theme points at the poster's file too.
    expect((await client.call('PUT', `/api/admin/sessions/${one}`, { theme: { logo: themed } })).status).toBe(200);
    for (const sessionId of [one, two]) {
      await client.call('POST', `/api/admin/sessions/${sessionId}/media`, { mediaId: doomed.id });
    }
    const question = (
      await client.call('POST', '/api/admin/questions', { text: 'Which film?', choices: ['A', 'B', 'C', 'D'], mediaId: doomed.id })
    ).body;
    const idOf = (path: string) => path.slice('/media/'.length);
    changed.length = 0;

    expect((await client.call('DELETE', `/api/media/${doomed.id}`)).status).toBe(204);
    expect(changed.sort()).toEqual([one, two].sort());
    for (const sessionId of [one, two]) expect((await client.call('GET', `/api/admin/sessions/${sessionId}/media`)).body).toEqual([]);
    const questions = (await client.call('GET', '/api/admin/questions')).body as { id: string; mediaId: string | null }[];
    expect(questions.find((q) => q.id === question.id)?.mediaId).toBeNull();
    expect((await client.call('GET', '/api/media')).body.map((m: { id: string }) => m.id)).not.toContain(doomed.id);
    // Its own phone file is gone; the file another media item uses stays.
    expect(client.stored().objects).not.toContain(idOf(own));
    expect((await client.media(idOf(own))).status).toBe(404);
    expect((await client.media(idOf(shared))).status).toBe(200);

    expect((await client.call('DELETE', `/api/media/${sibling.id}`)).status).toBe(204);
    expect(client.stored().objects).not.toContain(idOf(shared));
    // Still in a session theme: the poster's file survives its media item.
    expect((await client.call('DELETE', `/api/media/${poster.id}`)).status).toBe(204);
    expect((await client.media(idOf(themed))).status).toBe(200);
    expect((await client.call('DELETE', `/api/media/${poster.id}`)).status).toBe(404);
  });

  it('answers 401 to every media call without an admin', async () => {
    const anonymous = new TestApi(t.server);
    const id = crypto.randomUUID();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/media'],
      ['GET', '/api/admin/media'],
      ['POST', '/api/media', { filePath: `/media/${id}`, fileType: 'image' }],
      ['PATCH', `/api/media/${id}`, { duration: 5 }],
      ['DELETE', `/api/media/${id}`],
      ['GET', `/api/admin/sessions/${id}/media`],
      ['POST', `/api/admin/sessions/${id}/media`, { mediaId: id }],
      ['DELETE', `/api/admin/sessions/${id}/media/${id}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await anonymous.request(method as 'GET', url, body);
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body).toEqual({ message: 'Authentication required' });
    }
  });
});
