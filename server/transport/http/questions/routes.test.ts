import { describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import type { TestServer } from '../../../testing/server.js';
import { useAdminServer } from '../../../testing/hooks.js';

const QUESTION_KEYS = ['id', 'text', 'choices', 'correctIndex', 'points', 'timeLimitSeconds', 'categories', 'mediaId', 'createdAt'].sort();
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const VALID = {
  text: 'Which studio made Toy Story?',
  choices: ['Pixar', 'DreamWorks', 'Ghibli', 'Aardman'],
  correctIndex: 0,
  points: 10,
  timeLimitSeconds: 30,
  categories: ['Animation'],
  mediaId: null,
};

describe.each(DIALECTS)('question bank on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;

  useAdminServer(dialect, (s, a) => {
    server = s;
    api = a;
  });

  async function create(body: Record<string, unknown> = {}) {
    const res = await api.post('/api/admin/questions', { ...VALID, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }
  const all = async () => (await api.get('/api/admin/questions')).body as { id: string }[];
  const read = async (id: string) => (await all()).find((q) => q.id === id);
  async function insertMedia(): Promise<string> {
    const id = crypto.randomUUID();
    await server.server.deps.store.db
      .insertInto('media')
      .values({ id, file_path: `/media/${id}`, phone_file_path: null, file_type: 'image', duration: 3, promotional_link: null, created_at: new Date().toISOString() })
      .execute();
    return id;
  }

  it('refuses every question call without a token or with a bogus one', async () => {
    const question = await create();
    const anonymous = new TestApi(server);
    for (const [method, url, body] of [
      ['GET', '/api/admin/questions'],
      ['POST', '/api/admin/questions', VALID],
      ['PUT', `/api/admin/questions/${question.id}`, VALID],
      ['DELETE', `/api/admin/questions/${question.id}`],
    ] as [string, string, unknown?][]) {
      const res = await anonymous.request(method as 'GET', url, body);
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body).toEqual({ message: 'Authentication required' });
      const bogus = await anonymous.request(method as 'GET', url, body, { authorization: 'Bearer not-a-real-token' });
      expect(bogus.status, `bogus ${method} ${url}`).toBe(401);
      expect(bogus.body).toEqual({ message: 'Invalid or expired token' });
    }
    expect(await read(question.id)).toEqual(question);
  });

  it('creates a question with the documented shape, trimming text and choices', async () => {
    const question = await create({ text: '  Which studio made Toy Story?  ', choices: [' Pixar ', 'DreamWorks', 'Ghibli', 'Aardman'] });
    expect(Object.keys(question).sort()).toEqual(QUESTION_KEYS);
    expect(question).toEqual({ ...VALID, id: expect.any(String), createdAt: expect.any(String) });
    expect(await read(question.id)).toEqual(question);
  });

  it('fills the SPEC defaults: correct index 0, 10 points, 30 seconds, no categories, no media', async () => {
    const res = await api.post('/api/admin/questions', { text: 'Defaults?', choices: ['a', 'b', 'c', 'd'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ correctIndex: 0, points: 10, timeLimitSeconds: 30, categories: [], mediaId: null });
  });

  it('trims categories, drops blank ones and removes duplicates', async () => {
    const question = await create({ categories: ['  Films ', 'Films', '', '   ', 'Music', 'Films  '] });
    expect(question.categories).toEqual(['Films', 'Music']);
  });

  it('accepts an existing media id and the bounds 1 point, 5 seconds, index 3', async () => {
    const mediaId = await insertMedia();
    const question = await create({ mediaId, points: 1, timeLimitSeconds: 5, correctIndex: 3 });
    expect(question).toMatchObject({ mediaId, points: 1, timeLimitSeconds: 5, correctIndex: 3 });
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['blank text', { text: '   ' }],
    ['no text', { text: undefined }],
    ['a blank choice', { choices: ['Pixar', '  ', 'Ghibli', 'Aardman'] }],
    ['3 choices', { choices: ['a', 'b', 'c'] }],
    ['5 choices', { choices: ['a', 'b', 'c', 'd', 'e'] }],
    ['choices that are not strings', { choices: [1, 2, 3, 4] }],
    ['correct index 4', { correctIndex: 4 }],
    ['correct index -1', { correctIndex: -1 }],
    ['correct index as a string', { correctIndex: '1' }],
    ['0 points', { points: 0 }],
    ['fractional points', { points: 2.5 }],
    ['a 4-second time limit', { timeLimitSeconds: 4 }],
    ['categories that are not a list', { categories: 'Films' }],
    ['an unknown media id', { mediaId: UNKNOWN }],
    ['a NUL character in the text', { text: 'Who\u0000?' }],
    ['a NUL character in the media id', { mediaId: 'a\u0000b' }],
  ];

  it.each(invalid)('refuses a create with %s (400, nothing stored)', async (_name, patch) => {
    const before = (await all()).length;
    const res = await api.post('/api/admin/questions', { ...VALID, ...patch });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect((await all()).length).toBe(before);
  });

  it.each(invalid)('refuses an update with %s (400, nothing changed)', async (_name, patch) => {
    const question = await create({ text: 'Unchanged?' });
    const res = await api.put(`/api/admin/questions/${question.id}`, { ...VALID, ...patch });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(await read(question.id)).toEqual(question);
  });

  it('says "Please fill in all fields" for a blank text or choice', async () => {
    const res = await api.post('/api/admin/questions', { ...VALID, text: '' });
    expect(res.body.message).toContain('Please fill in all fields');
  });

  it('updates a question in place and answers 404 for an unknown one', async () => {
    const question = await create();
    const mediaId = await insertMedia();
    const body = { text: 'Who voiced Woody?', choices: ['Hanks', 'Allen', 'Cusack', 'Rickles'], correctIndex: 0, points: 25, timeLimitSeconds: 20, categories: ['Voices'], mediaId };
    const res = await api.put(`/api/admin/questions/${question.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...body, id: question.id, createdAt: question.createdAt });
    expect(await read(question.id)).toEqual(res.body);

    const unknown = await api.put(`/api/admin/questions/${UNKNOWN}`, VALID);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Question not found' });
  });

  it('updates show in the session item summaries', async () => {
    const question = await create({ text: 'Before?' });
    const sessionId = (await api.post('/api/admin/sessions', { title: 'Summary' })).body.id;
    await api.post(`/api/admin/sessions/${sessionId}/questions`, { questionId: question.id });
    await api.put(`/api/admin/questions/${question.id}`, { ...VALID, text: 'After?', points: 50 });
    const [item] = (await api.get(`/api/admin/sessions/${sessionId}/items`)).body;
    expect(item.question).toMatchObject({ text: 'After?', points: 50 });
  });

  it('deletes a question (204), then 404', async () => {
    const question = await create();
    expect((await api.delete(`/api/admin/questions/${question.id}`)).status).toBe(204);
    expect(await read(question.id)).toBeUndefined();
    const again = await api.delete(`/api/admin/questions/${question.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Question not found' });
  });

  it('filters by session in the session\'s order, and answers 404 for an unknown session', async () => {
    const sessionId = (await api.post('/api/admin/sessions', { title: 'Filter' })).body.id;
    const a = await create({ text: 'A?' });
    // Creation order is kept to the millisecond; questions made within one share their place.
    await new Promise((r) => setTimeout(r, 5));
    const b = await create({ text: 'B?' });
    await create({ text: 'Not in the session?' });
    await api.post(`/api/admin/sessions/${sessionId}/questions`, { questionId: b.id });
    await api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: 'intro' });
    await api.post(`/api/admin/sessions/${sessionId}/questions`, { questionId: a.id });
    const res = await api.get(`/api/admin/questions?sessionId=${sessionId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([b, a]);
    expect((await api.get(`/api/admin/questions?sessionId=${UNKNOWN}`)).status).toBe(404);
    expect((await api.get('/api/admin/questions?sessionId=a%00b')).status).toBe(400);
    // Without the filter, every question of the bank in creation order.
    const ids = (await all()).map((q) => q.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
  });

  it('answers 400 for malformed JSON and non-object bodies', async () => {
    const before = (await all()).length;
    const question = await create();
    for (const [method, url] of [['POST', '/api/admin/questions'], ['PUT', `/api/admin/questions/${question.id}`]] as const) {
      const res = await api.request(method, url, '{"text": "x",', { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Malformed JSON body' });
      for (const body of ['[]', 'null', '"text"']) {
        expect((await api.request(method, url, body, { 'content-type': 'application/json' })).status).toBe(400);
      }
    }
    expect((await all()).length).toBe(before + 1);
    expect(await read(question.id)).toEqual(question);
  });
});
