import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../testing/api.js';
import { DIALECTS } from '../../testing/databases.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import type { Store } from '../../storage/store.js';
import { SessionLifecycle } from './lifecycle.js';

const HOUR_MS = 3_600_000;
const OLD_SNAPSHOT = '{"left":"by an earlier run"}';
/** An asking number the live room will not reach during the test: a row of the earlier run. */
const OLD_ASKING = 999;

describe.each(DIALECTS)('session lifecycle on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;
  let store: Store;
  let lifecycle: SessionLifecycle;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    api = new TestApi(server);
    await api.login();
    store = server.server.deps.store;
    lifecycle = server.server.deps.lifecycle;
  });
  afterAll(() => server?.close());

  async function createSession(body: Record<string, unknown> = {}) {
    const res = await api.post('/api/admin/sessions', { title: 'Lifecycle', ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; status: string; [key: string]: unknown };
  }
  async function createQuestion(text = 'Which film won Best Picture in 1998?') {
    const res = await api.post('/api/admin/questions', { text, choices: ['Titanic', 'Fargo', 'Heat', 'Alien'], correctIndex: 0 });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  }
  async function registerPlayer(sessionId: string, email: string) {
    // A fixed name: one made of the session's random id can spell a word the name filter refuses ("a55").
    const res = await api.post('/api/player/register', { name: 'Lifecycle Player', email, sessionId });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  }
  const statusOf = async (id: string) => (await store.sessions.get(id))?.status;
  const action = (id: string, name: 'start' | 'stop' | 'restart') => api.post(`/api/admin/sessions/${id}/${name}`);

  /** A session played once: one answer and one score for a player, then finished. */
  async function playedSession() {
    const session = await createSession();
    const question = await createQuestion();
    await api.post(`/api/admin/sessions/${session.id}/questions`, { questionId: question.id });
    const player = await registerPlayer(session.id, `p-${session.id}@example.com`);
    expect((await action(session.id, 'start')).status).toBe(200);
    const now = new Date().toISOString();
    await store.scores.saveAnswers([
      {
        sessionId: session.id, playerId: player.id, questionId: question.id, asking: 0, selectedIndex: 0,
        isCorrect: true, pointsEarned: 8, elapsedMs: 1200, answeredAt: now,
      },
    ]);
    await store.scores.saveScores(session.id, [{ playerId: player.id, pointsTotal: 8, reachedAt: now }]);
    // An asking of the old run (the live room records its own as it plays).
    await store.liveWrites.insertManyAskings(store.db, [{ sessionId: session.id, askings: [{ asking: OLD_ASKING, questionId: question.id, askedAt: now }] }]);
    await store.sessions.saveLiveState(session.id, OLD_SNAPSHOT, 3);
    expect((await action(session.id, 'stop')).status).toBe(200);
    return { session, question, player };
  }
  const oldAskings = async (sessionId: string) =>
    (await store.db.selectFrom('question_askings').select('asking').where('session_id', '=', sessionId).where('asking', '=', OLD_ASKING).execute()).length;
  const countRows = async (table: 'answers' | 'scores' | 'session_items' | 'session_media', sessionId: string) =>
    (await store.db.selectFrom(table).select('session_id').where('session_id', '=', sessionId).execute()).length;

  it('starts draft and scheduled sessions (→ live at item 0) and refuses to start live or finished ones', async () => {
    const draft = await createSession();
    const started = await action(draft.id, 'start');
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ id: draft.id, status: 'live', currentQuestionIndex: 0 });

    const scheduled = await createSession({ startsAt: new Date(Date.now() + HOUR_MS).toISOString() });
    expect(scheduled.status).toBe('scheduled');
    expect((await action(scheduled.id, 'start')).body.status).toBe('live');

    const again = await action(draft.id, 'start');
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/live/);
    expect((await action(draft.id, 'stop')).body.status).toBe('finished');
    const fromFinished = await action(draft.id, 'start');
    expect(fromFinished.status).toBe(409);
    expect(fromFinished.body.message).toMatch(/finished/);
    expect(await statusOf(draft.id)).toBe('finished');
  });

  it('stops only live sessions', async () => {
    const draft = await createSession();
    const res = await action(draft.id, 'stop');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/draft/);
    const scheduled = await createSession({ startsAt: new Date(Date.now() + HOUR_MS).toISOString() });
    expect((await action(scheduled.id, 'stop')).status).toBe(409);
    expect(await statusOf(scheduled.id)).toBe('scheduled');
    await action(draft.id, 'start');
    await action(draft.id, 'stop');
    expect((await action(draft.id, 'stop')).status).toBe(409);
    expect(await statusOf(draft.id)).toBe('finished');
  });

  it('restarts only finished sessions, deleting that session\'s answers and scores and no other\'s', async () => {
    const played = await playedSession();
    const other = await playedSession();
    expect(await countRows('answers', played.session.id)).toBe(1);
    expect(await countRows('scores', played.session.id)).toBe(1);

    const res = await action(played.session.id, 'restart');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: played.session.id, status: 'live', currentQuestionIndex: 0 });
    expect(await countRows('answers', played.session.id)).toBe(0);
    expect(await countRows('scores', played.session.id)).toBe(0);
    expect(await oldAskings(played.session.id)).toBe(0); // the results start afresh too
    expect(await oldAskings(other.session.id)).toBe(1);
    // The old run's snapshot is gone (a live room may already have written a fresh one).
    expect(await store.sessions.getLiveState(played.session.id)).not.toBe(OLD_SNAPSHOT);
    // The other session keeps its history, and the session keeps its items.
    expect(await countRows('answers', other.session.id)).toBe(1);
    expect(await store.scores.listScores(other.session.id)).toEqual([
      expect.objectContaining({ playerId: other.player.id, pointsTotal: 8 }),
    ]);
    expect(await countRows('session_items', played.session.id)).toBe(1);

    const fromLive = await action(played.session.id, 'restart');
    expect(fromLive.status).toBe(409);
    const draft = await createSession();
    expect((await action(draft.id, 'restart')).status).toBe(409);
    expect(await statusOf(draft.id)).toBe('draft');
  });

  it('refuses to edit or delete a live session (409, nothing changed) but lets its theme change', async () => {
    const session = await createSession({ title: 'On air' });
    await action(session.id, 'start');
    const before = await store.sessions.get(session.id);

    const edit = await api.put(`/api/admin/sessions/${session.id}`, { title: 'Changed' });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toMatch(/live/i);
    const mixed = await api.put(`/api/admin/sessions/${session.id}`, { title: 'Changed', theme: { textColor: '#000' } });
    expect(mixed.status).toBe(409);
    const del = await api.delete(`/api/admin/sessions/${session.id}`);
    expect(del.status).toBe(409);
    expect(await store.sessions.get(session.id)).toEqual(before);

    const theme = await api.put(`/api/admin/sessions/${session.id}`, { theme: { primaryColor: '#ABCDEF' } });
    expect(theme.status).toBe(200);
    expect(theme.body).toMatchObject({ status: 'live', title: 'On air', theme: { primaryColor: '#ABCDEF' } });
  });

  it('deletes a session with its items, media assignments, answers and scores', async () => {
    const { session, question, player } = await playedSession();
    const media = await insertMedia(store);
    await store.db.insertInto('session_media').values({ session_id: session.id, media_id: media, created_at: new Date().toISOString() }).execute();
    await api.post(`/api/admin/sessions/${session.id}/slides`, { slideType: 'intro' });

    const res = await api.delete(`/api/admin/sessions/${session.id}`);
    expect(res.status).toBe(204);
    expect(await store.sessions.get(session.id)).toBeUndefined();
    for (const table of ['answers', 'scores', 'session_items', 'session_media'] as const) {
      expect(await countRows(table, session.id), table).toBe(0);
    }
    // Players belong to their session and go with it (DESIGN §15); shared things outlive it.
    expect(await store.players.get(player.id)).toBeUndefined();
    expect(await store.questions.get(question.id)).toBeDefined();
    expect(await store.db.selectFrom('media').select('id').where('id', '=', media).executeTakeFirst()).toBeDefined();
    expect((await api.get(`/api/admin/sessions/${session.id}`)).status).toBe(404);
  });

  it('duplicates as a draft copy with settings, theme, items in order and media assignments', async () => {
    const auditorium = (await api.post('/api/admin/auditoriums', { name: 'Grand' })).body;
    const source = await createSession({
      title: 'Original',
      auditoriumId: auditorium.id,
      startsAt: new Date(Date.now() + HOUR_MS).toISOString(),
      autoRotate: false,
      mediaItemsPerTransition: 7,
      returnMessage: 'Scan the screen',
      theme: { primaryColor: '#FFD700', primaryFont: 'Georgia', backgroundOverlay: 'dark' },
    });
    const q1 = await createQuestion('First?');
    const q2 = await createQuestion('Second?');
    await api.post(`/api/admin/sessions/${source.id}/slides`, { slideType: 'join', slideData: { text: 'Join us' } });
    await api.post(`/api/admin/sessions/${source.id}/questions`, { questionId: q1.id });
    await api.post(`/api/admin/sessions/${source.id}/media-blocks`, { mediaItemCount: 5 });
    await api.post(`/api/admin/sessions/${source.id}/questions`, { questionId: q2.id });
    const firstItem = (await api.get(`/api/admin/sessions/${source.id}/items`)).body[0];
    await api.post(`/api/admin/sessions/${source.id}/items/${firstItem.id}/reorder`, { direction: 'down' });
    const mediaA = await insertMedia(store);
    const mediaB = await insertMedia(store);
    await store.db.insertInto('session_media').values([
      { session_id: source.id, media_id: mediaA, created_at: new Date().toISOString() },
      { session_id: source.id, media_id: mediaB, created_at: new Date().toISOString() },
    ]).execute();
    await action(source.id, 'start');

    const res = await api.post(`/api/admin/sessions/${source.id}/duplicate`);
    expect(res.status).toBe(201);
    const copy = res.body;
    expect(copy).toEqual({
      ...source,
      id: expect.any(String),
      title: 'Original (Copy)',
      status: 'draft',
      createdAt: expect.any(String),
      startsAt: null,
      currentQuestionIndex: 0,
    });
    expect(copy.id).not.toBe(source.id);

    const strip = (items: Record<string, unknown>[]) => items.map(({ id: _id, sessionId: _s, ...rest }) => rest);
    const sourceItems = (await api.get(`/api/admin/sessions/${source.id}/items`)).body;
    const copyItems = (await api.get(`/api/admin/sessions/${copy.id}/items`)).body;
    expect(copyItems.map((i: { itemType: string }) => i.itemType)).toEqual(['question', 'slide', 'media_block', 'question']);
    expect(strip(copyItems)).toEqual(strip(sourceItems));
    expect(copyItems.every((i: { sessionId: string }) => i.sessionId === copy.id)).toBe(true);
    const copyMedia = await store.db.selectFrom('session_media').select('media_id').where('session_id', '=', copy.id).execute();
    expect(copyMedia.map((m) => m.media_id).sort()).toEqual([mediaA, mediaB].sort());

    // The copy is independent: editing it leaves the source alone.
    await api.delete(`/api/admin/sessions/${copy.id}/items/${copyItems[0].id}`);
    expect((await api.get(`/api/admin/sessions/${source.id}/items`)).body).toHaveLength(4);
    expect(await statusOf(source.id)).toBe('live');
  });

  it('starts a scheduled session whose time has passed through startDue(), once', async () => {
    const due = await createSession({ startsAt: new Date(Date.now() + HOUR_MS).toISOString() });
    const later = await createSession({ startsAt: new Date(Date.now() + 3 * HOUR_MS).toISOString() });
    const started: string[] = [];
    const onStarted = (id: string) => started.push(id);
    lifecycle.on('started', onStarted);
    try {
      const ids = await lifecycle.startDue(Date.now() + 2 * HOUR_MS);
      expect(ids).toContain(due.id);
      expect(ids).not.toContain(later.id);
      expect(started).toContain(due.id);
      expect(await statusOf(due.id)).toBe('live');
      expect(await statusOf(later.id)).toBe('scheduled');
      expect(await lifecycle.startDue(Date.now() + 2 * HOUR_MS)).not.toContain(due.id);
    } finally {
      lifecycle.off('started', onStarted);
    }
  });

  it('lets the scheduler start a scheduled session by itself when its time comes', async () => {
    const session = await createSession({ startsAt: new Date(Date.now() + 400).toISOString() });
    expect(session.status).toBe('scheduled');
    const deadline = Date.now() + 2500;
    while ((await statusOf(session.id)) !== 'live' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await statusOf(session.id)).toBe('live');
  });
});

describe('SessionLifecycle.statusFor', () => {
  it('is scheduled only for a start time after now', () => {
    const now = Date.parse('2030-01-01T12:00:00Z');
    expect(SessionLifecycle.statusFor(null, now)).toBe('draft');
    expect(SessionLifecycle.statusFor('2030-01-01T12:00:00Z', now)).toBe('draft');
    expect(SessionLifecycle.statusFor('2030-01-01T12:00:01Z', now)).toBe('scheduled');
    expect(SessionLifecycle.statusFor('2029-12-31T23:00:00Z', now)).toBe('draft');
  });
});

let mediaCounter = 0;
/** A media row straight in the table (the media routes belong to another module). */
async function insertMedia(store: Store): Promise<string> {
  const id = `00000000-0000-4000-8000-${String(++mediaCounter).padStart(12, '0')}`;
  await store.db
    .insertInto('media')
    .values({ id, file_path: `/media/${id}`, phone_file_path: null, file_type: 'image', duration: 3, promotional_link: null, created_at: new Date().toISOString() })
    .execute();
  return id;
}
