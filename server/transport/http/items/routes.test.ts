import { describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import type { TestServer } from '../../../testing/server.js';
import { useAdminServer } from '../../../testing/hooks.js';

// DESIGN §2 item list entry, exactly these keys.
const ITEM_KEYS = ['id', 'sessionId', 'orderIndex', 'itemType', 'questionId', 'question', 'slideType', 'slideData', 'mediaItemCount'].sort();
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

interface Item {
  id: string;
  orderIndex: number;
  itemType: string;
  questionId: string | null;
  [key: string]: unknown;
}

describe.each(DIALECTS)('session items on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;

  useAdminServer(dialect, (s, a) => {
    server = s;
    api = a;
  });

  async function newSession(): Promise<string> {
    return (await api.post('/api/admin/sessions', { title: 'Items' })).body.id;
  }
  async function newQuestion(text = 'Who directed Jaws?', extra: Record<string, unknown> = {}): Promise<string> {
    const res = await api.post('/api/admin/questions', { text, choices: ['Spielberg', 'Lucas', 'Scott', 'Cameron'], ...extra });
    expect(res.status).toBe(201);
    return res.body.id;
  }
  const items = async (sessionId: string): Promise<Item[]> => (await api.get(`/api/admin/sessions/${sessionId}/items`)).body;
  const kinds = async (sessionId: string) => (await items(sessionId)).map((i) => i.questionId ?? i.slideType ?? `block:${i.mediaItemCount}`);
  const addQuestion = (sessionId: string, questionId: string, orderIndex?: number) =>
    api.post(`/api/admin/sessions/${sessionId}/questions`, { questionId, ...(orderIndex === undefined ? {} : { orderIndex }) });

  it('refuses every item call without a token or with a bogus one', async () => {
    const sessionId = await newSession();
    const anonymous = new TestApi(server);
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/admin/sessions/${sessionId}/items`],
      ['GET', `/api/admin/sessions/${sessionId}/questions`],
      ['POST', `/api/admin/sessions/${sessionId}/questions`, { questionId: UNKNOWN }],
      ['DELETE', `/api/admin/sessions/${sessionId}/questions/${UNKNOWN}`],
      ['POST', `/api/admin/sessions/${sessionId}/questions/${UNKNOWN}/reorder`, { direction: 'up' }],
      ['POST', `/api/admin/sessions/${sessionId}/media-blocks`, {}],
      ['PUT', `/api/admin/sessions/${sessionId}/media-blocks/${UNKNOWN}`, { mediaItemCount: 2 }],
      ['DELETE', `/api/admin/sessions/${sessionId}/items/${UNKNOWN}`],
      ['POST', `/api/admin/sessions/${sessionId}/items/${UNKNOWN}/reorder`, { direction: 'down' }],
      ['POST', `/api/admin/sessions/${sessionId}/slides`, { slideType: 'intro' }],
    ];
    for (const [method, url, body] of calls) {
      const res = await anonymous.request(method as 'GET', url, body);
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body).toEqual({ message: 'Authentication required' });
      const bogus = await anonymous.request(method as 'GET', url, body, { authorization: 'Bearer not-a-real-token' });
      expect(bogus.status, `bogus ${method} ${url}`).toBe(401);
      expect(bogus.body).toEqual({ message: 'Invalid or expired token' });
    }
    expect(await items(sessionId)).toEqual([]);
  });

  it('adds questions at the end (max + 1, or 0) and lists the links', async () => {
    const sessionId = await newSession();
    const q1 = await newQuestion();
    const q2 = await newQuestion('Who scored Star Wars?');
    const first = await addQuestion(sessionId, q1);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ questionId: q1, sessionId, orderIndex: 0 });
    await api.post(`/api/admin/sessions/${sessionId}/media-blocks`, {});
    const second = await addQuestion(sessionId, q2);
    expect(second.body).toEqual({ questionId: q2, sessionId, orderIndex: 2 });

    const links = await api.get(`/api/admin/sessions/${sessionId}/questions`);
    expect(links.status).toBe(200);
    expect(links.body).toEqual([
      { questionId: q1, sessionId, orderIndex: 0 },
      { questionId: q2, sessionId, orderIndex: 2 },
    ]);
  });

  it('honours an orderIndex beyond the end (question bank) and falls back to the end when it is taken', async () => {
    const sessionId = await newSession();
    const [q1, q2, q3] = [await newQuestion('A?'), await newQuestion('B?'), await newQuestion('C?')];
    expect((await addQuestion(sessionId, q1, 5)).body.orderIndex).toBe(5);
    expect((await addQuestion(sessionId, q2, 0)).body.orderIndex).toBe(6);
    expect((await addQuestion(sessionId, q3)).body.orderIndex).toBe(7);
    expect((await items(sessionId)).map((i) => i.questionId)).toEqual([q1, q2, q3]);
  });

  it('refuses the same question twice (409) and unknown sessions or questions (404)', async () => {
    const sessionId = await newSession();
    const q = await newQuestion();
    await addQuestion(sessionId, q);
    const again = await addQuestion(sessionId, q);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'The question is already in this session' });
    expect((await addQuestion(sessionId, UNKNOWN)).status).toBe(404);
    expect((await addQuestion(UNKNOWN, q)).status).toBe(404);
    expect(await items(sessionId)).toHaveLength(1);
  });

  it('lists items in order with the documented shape and a question summary', async () => {
    const sessionId = await newSession();
    const q = await newQuestion('Name the shark', { categories: [' Films ', 'Films', '1970s'], points: 20, timeLimitSeconds: 15 });
    await api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: 'intro' });
    await addQuestion(sessionId, q);
    await api.post(`/api/admin/sessions/${sessionId}/media-blocks`, { mediaItemCount: 4 });

    const res = await api.get(`/api/admin/sessions/${sessionId}/items`);
    expect(res.status).toBe(200);
    for (const item of res.body) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    expect(res.body).toEqual([
      {
        id: expect.any(String), sessionId, orderIndex: 0, itemType: 'slide', questionId: null, question: null,
        slideType: 'intro', slideData: null, mediaItemCount: null,
      },
      {
        id: expect.any(String), sessionId, orderIndex: 1, itemType: 'question', questionId: q,
        question: { id: q, text: 'Name the shark', categories: ['Films', '1970s'], points: 20, timeLimitSeconds: 15 },
        slideType: null, slideData: null, mediaItemCount: null,
      },
      {
        id: expect.any(String), sessionId, orderIndex: 2, itemType: 'media_block', questionId: null, question: null,
        slideType: null, slideData: null, mediaItemCount: 4,
      },
    ]);
    // The summary never leaks the answer.
    expect(JSON.stringify(res.body)).not.toContain('correctIndex');
    expect((await api.get(`/api/admin/sessions/${UNKNOWN}/items`)).status).toBe(404);
    expect((await api.get(`/api/admin/sessions/${UNKNOWN}/questions`)).status).toBe(404);
  });

  it('removes a question from a session (204) and answers 404 when it is not there', async () => {
    const sessionId = await newSession();
    const q = await newQuestion();
    await addQuestion(sessionId, q);
    const res = await api.delete(`/api/admin/sessions/${sessionId}/questions/${q}`);
    expect(res.status).toBe(204);
    expect(await items(sessionId)).toEqual([]);
    // The question stays in the bank.
    expect((await api.get('/api/admin/questions')).body.map((x: { id: string }) => x.id)).toContain(q);
    expect((await api.delete(`/api/admin/sessions/${sessionId}/questions/${q}`)).status).toBe(404);
    expect((await api.delete(`/api/admin/sessions/${UNKNOWN}/questions/${q}`)).status).toBe(404);
  });

  it('reorders questions up and down; first up and last down answer 409', async () => {
    const sessionId = await newSession();
    const [a, b, c] = [await newQuestion('A?'), await newQuestion('B?'), await newQuestion('C?')];
    for (const q of [a, b, c]) await addQuestion(sessionId, q);
    const reorder = (q: string, direction: unknown) => api.post(`/api/admin/sessions/${sessionId}/questions/${q}/reorder`, { direction });

    const up = await reorder(c, 'up');
    expect(up.status).toBe(200);
    expect(up.body.map((i: Item) => i.questionId)).toEqual([a, c, b]);
    expect(up.body.map((i: Item) => i.orderIndex)).toEqual([0, 1, 2]);
    expect((await reorder(a, 'down')).body.map((i: Item) => i.questionId)).toEqual([c, a, b]);

    const firstUp = await reorder(c, 'up');
    expect(firstUp.status).toBe(409);
    expect(firstUp.body).toEqual({ message: 'The item is already first' });
    const lastDown = await reorder(b, 'down');
    expect(lastDown.status).toBe(409);
    expect(lastDown.body).toEqual({ message: 'The item is already last' });
    for (const bad of ['left', 'UP', '', null, 1]) {
      const res = await reorder(a, bad);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await reorder(UNKNOWN, 'up')).status).toBe(404);
    expect((await items(sessionId)).map((i) => i.questionId)).toEqual([c, a, b]);
  });

  it('adds media blocks with count 3 by default, 1 to 20 otherwise, and updates them', async () => {
    const sessionId = await newSession();
    const created = await api.post(`/api/admin/sessions/${sessionId}/media-blocks`, {});
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(ITEM_KEYS);
    expect(created.body).toMatchObject({ sessionId, orderIndex: 0, itemType: 'media_block', mediaItemCount: 3 });
    const twenty = await api.post(`/api/admin/sessions/${sessionId}/media-blocks`, { mediaItemCount: 20 });
    expect(twenty.body.mediaItemCount).toBe(20);

    const updated = await api.put(`/api/admin/sessions/${sessionId}/media-blocks/${created.body.id}`, { mediaItemCount: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...created.body, mediaItemCount: 1 });

    for (const mediaItemCount of [0, 21, 1.5, '3', null]) {
      const add = await api.post(`/api/admin/sessions/${sessionId}/media-blocks`, { mediaItemCount });
      expect(add.status, `add ${String(mediaItemCount)}`).toBe(400);
      const put = await api.put(`/api/admin/sessions/${sessionId}/media-blocks/${created.body.id}`, { mediaItemCount });
      expect(put.status, `put ${String(mediaItemCount)}`).toBe(400);
    }
    expect((await api.put(`/api/admin/sessions/${sessionId}/media-blocks/${created.body.id}`, {})).status).toBe(400);
    expect((await items(sessionId)).map((i) => i.mediaItemCount)).toEqual([1, 20]);
  });

  it('answers 404 for media-block updates of unknown sessions, unknown items and items that are no media block', async () => {
    const sessionId = await newSession();
    const otherSession = await newSession();
    const slide = (await api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: 'rules' })).body;
    const block = (await api.post(`/api/admin/sessions/${otherSession}/media-blocks`, {})).body;
    for (const url of [
      `/api/admin/sessions/${sessionId}/media-blocks/${slide.id}`,
      `/api/admin/sessions/${sessionId}/media-blocks/${UNKNOWN}`,
      `/api/admin/sessions/${sessionId}/media-blocks/${block.id}`,
      `/api/admin/sessions/${UNKNOWN}/media-blocks/${block.id}`,
    ]) {
      const res = await api.put(url, { mediaItemCount: 5 });
      expect(res.status, url).toBe(404);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await items(otherSession))[0].mediaItemCount).toBe(3);
    expect((await api.post(`/api/admin/sessions/${UNKNOWN}/media-blocks`, {})).status).toBe(404);
  });

  it('adds each slide type; a join slide carries its text, by default "Scan to Join!"', async () => {
    const sessionId = await newSession();
    for (const slideType of ['intro', 'rules', 'break', 'leaderboard']) {
      const res = await api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(ITEM_KEYS);
      expect(res.body).toMatchObject({ itemType: 'slide', slideType, slideData: null, questionId: null, mediaItemCount: null });
    }
    const joinDefault = await api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: 'join' });
    expect(joinDefault.body.slideData).toEqual({ text: 'Scan to Join!' });
    const joinText = await api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: 'join', slideData: { text: '  Play along!  ' } });
    expect(joinText.body.slideData).toEqual({ text: 'Play along!' });
    const breakText = await api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: 'break', slideData: { text: 'Ten minutes' } });
    expect(breakText.body.slideData).toEqual({ text: 'Ten minutes' });
    expect(await kinds(sessionId)).toEqual(['intro', 'rules', 'break', 'leaderboard', 'join', 'join', 'break']);
    expect((await items(sessionId)).map((i) => i.orderIndex)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  const badSlides: [string, unknown][] = [
    ['a join slide with blank text', { slideType: 'join', slideData: { text: '   ' } }],
    ['a join slide with empty text', { slideType: 'join', slideData: { text: '' } }],
    ['an unknown slide type', { slideType: 'credits' }],
    ['no slide type', {}],
    ['slide text of the wrong type', { slideType: 'join', slideData: { text: 5 } }],
    ['slide data of the wrong type', { slideType: 'intro', slideData: 'text' }],
  ];
  it.each(badSlides)('refuses %s (400, nothing added)', async (_name, body) => {
    const sessionId = await newSession();
    const res = await api.post(`/api/admin/sessions/${sessionId}/slides`, body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(await items(sessionId)).toEqual([]);
  });

  it('deletes and reorders any item by id; the ends answer 409, strangers 404', async () => {
    const sessionId = await newSession();
    const other = await newSession();
    const q = await newQuestion();
    const intro = (await api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: 'intro' })).body;
    await addQuestion(sessionId, q);
    const block = (await api.post(`/api/admin/sessions/${sessionId}/media-blocks`, {})).body;
    const foreign = (await api.post(`/api/admin/sessions/${other}/slides`, { slideType: 'break' })).body;
    const reorder = (id: string, direction: string, session = sessionId) =>
      api.post(`/api/admin/sessions/${session}/items/${id}/reorder`, { direction });

    const moved = await reorder(block.id, 'up');
    expect(moved.status).toBe(200);
    expect(moved.body.map((i: Item) => i.id)).toEqual([intro.id, block.id, expect.any(String)]);
    expect((await reorder(intro.id, 'up')).status).toBe(409);
    expect((await reorder((await items(sessionId))[2].id, 'down')).status).toBe(409);
    expect((await reorder(intro.id, 'sideways')).status).toBe(400);
    expect((await reorder(foreign.id, 'down')).status).toBe(404);
    expect((await reorder(intro.id, 'down', UNKNOWN)).status).toBe(404);

    expect((await api.delete(`/api/admin/sessions/${sessionId}/items/${foreign.id}`)).status).toBe(404);
    expect((await api.delete(`/api/admin/sessions/${sessionId}/items/${UNKNOWN}`)).status).toBe(404);
    expect((await api.delete(`/api/admin/sessions/${sessionId}/items/${block.id}`)).status).toBe(204);
    expect(await kinds(sessionId)).toEqual(['intro', q]);
    expect(await kinds(other)).toEqual(['break']);
    // After a removal the remaining items still move, and new ones still go last.
    expect((await reorder(intro.id, 'down')).body.map((i: Item) => i.questionId ?? i.slideType)).toEqual([q, 'intro']);
    await api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: 'leaderboard' });
    expect(await kinds(sessionId)).toEqual([q, 'intro', 'leaderboard']);
  });

  it('drops a deleted question from every session it was in', async () => {
    const s1 = await newSession();
    const s2 = await newSession();
    const q = await newQuestion();
    const keep = await newQuestion('Kept?');
    await addQuestion(s1, q);
    await addQuestion(s1, keep);
    await addQuestion(s2, q);
    expect((await api.delete(`/api/admin/questions/${q}`)).status).toBe(204);
    expect(await kinds(s1)).toEqual([keep]);
    expect(await items(s2)).toEqual([]);
    expect((await api.get(`/api/admin/sessions/${s1}/questions`)).body).toEqual([{ questionId: keep, sessionId: s1, orderIndex: 1 }]);
  });

  it('keeps order positions unique when items are added at the same time', async () => {
    const sessionId = await newSession();
    const questions = await Promise.all([1, 2, 3, 4, 5].map((n) => newQuestion(`Parallel ${n}?`)));
    const results = await Promise.all([
      ...questions.map((q) => addQuestion(sessionId, q)),
      api.post(`/api/admin/sessions/${sessionId}/media-blocks`, {}),
      api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: 'intro' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201, 201]);
    const list = await items(sessionId);
    expect(list).toHaveLength(7);
    expect(new Set(list.map((i) => i.orderIndex)).size).toBe(7);

    // Moves at the same time each swap cleanly: no 500, positions stay 0..6.
    const moves = await Promise.all(
      list.map((item, n) => api.post(`/api/admin/sessions/${sessionId}/items/${item.id}/reorder`, { direction: n % 2 ? 'up' : 'down' })),
    );
    for (const res of moves) expect([200, 409]).toContain(res.status);
    const after = await items(sessionId);
    expect(after.map((i) => i.orderIndex)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(after.map((i) => i.id).sort()).toEqual(list.map((i) => i.id).sort());
  });

  it('answers 400 for malformed JSON on item calls and changes nothing', async () => {
    const sessionId = await newSession();
    for (const url of [
      `/api/admin/sessions/${sessionId}/questions`,
      `/api/admin/sessions/${sessionId}/media-blocks`,
      `/api/admin/sessions/${sessionId}/slides`,
    ]) {
      const res = await api.request('POST', url, '{"x":', { 'content-type': 'application/json' });
      expect(res.status, url).toBe(400);
      expect(res.body).toEqual({ message: 'Malformed JSON body' });
    }
    for (const body of [{}, { questionId: 5 }, { questionId: '' }, { questionId: UNKNOWN, orderIndex: -1 }, { questionId: UNKNOWN, orderIndex: 1.5 }, { questionId: 'a\u0000b' }]) {
      expect((await api.post(`/api/admin/sessions/${sessionId}/questions`, body)).status).toBe(400);
    }
    expect((await api.delete(`/api/admin/sessions/${sessionId}/items/a%00b`)).status).toBe(400);
    expect(await items(sessionId)).toEqual([]);
  });
});
