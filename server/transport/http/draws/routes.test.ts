import { describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import type { TestServer } from '../../../testing/server.js';
import { useAdminServer } from '../../../testing/hooks.js';
import { TestSocket } from '../../ws/testing/client.js';

const PRIZE_DRAW = { enabled: true, prize: 'Two tickets for Friday', consentText: 'Enter me in the prize draw; you may email me if I win.' };
const SHOWN_TEXT = `Prize: ${PRIZE_DRAW.prize}\n${PRIZE_DRAW.consentText}`;

describe.each(DIALECTS)('prize draw on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;

  useAdminServer(dialect, (s, a) => {
    server = s;
    api = a;
  });

  let emailCounter = 0;
  async function session(prizeDraw: object | null = PRIZE_DRAW): Promise<string> {
    const res = await api.post('/api/admin/sessions', { title: 'Draw night', ...(prizeDraw ? { prizeDraw } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  }
  async function register(sessionId: string, name: string, prizeConsent?: boolean, points?: number, played = true) {
    const email = `${name.toLowerCase()}-${++emailCounter}@example.com`;
    const res = await new TestApi(server).post('/api/player/register', { sessionId, name, email, ...(prizeConsent === undefined ? {} : { prizeConsent }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const db = server.server.deps.store.db;
    if (points !== undefined) {
      await db.insertInto('scores').values({ session_id: sessionId, player_id: res.body.id, points_total: points, reached_at: new Date().toISOString() }).execute();
    }
    // Only players who answered a question of the session can win (DESIGN §15): each one here did.
    if (played) {
      await db
        .insertInto('answers')
        .values({ session_id: sessionId, player_id: res.body.id, question_id: await questionId(), asking: 1, selected_index: 0, is_correct: 0, points_earned: 0, elapsed_ms: 1000, answered_at: new Date().toISOString() })
        .execute();
    }
    return res.body as { id: string; name: string; email: string; playerToken: string };
  }
  let question: string | undefined;
  async function questionId(): Promise<string> {
    question ??= (await api.post('/api/admin/questions', { text: 'Who?', choices: ['A', 'B', 'C', 'D'], correctIndex: 0, points: 100, timeLimitSeconds: 10, categories: [] })).body.id as string;
    return question!;
  }
  const draw = (sessionId: string, body: unknown) => api.post(`/api/admin/sessions/${sessionId}/draws`, body);

  it('keeps the draw off by default and validates its settings', async () => {
    const plain = await api.post('/api/admin/sessions', { title: 'No draw' });
    expect(plain.body.prizeDraw).toEqual({ enabled: false, prize: '', consentText: '' });
    const on = await api.put(`/api/admin/sessions/${plain.body.id}`, { prizeDraw: PRIZE_DRAW });
    expect(on.status).toBe(200);
    expect(on.body.prizeDraw).toEqual(PRIZE_DRAW);
    expect((await api.get(`/api/sessions/${plain.body.id}`)).body.prizeDraw).toEqual(PRIZE_DRAW);
    const noText = await api.put(`/api/admin/sessions/${plain.body.id}`, { prizeDraw: { enabled: true, prize: 'A DVD', consentText: '  ' } });
    expect(noText.status).toBe(400);
    expect(noText.body.message).toMatch(/consent text is required/);
    expect((await api.get(`/api/admin/sessions/${plain.body.id}`)).body.prizeDraw).toEqual(PRIZE_DRAW);
    const copy = await api.post(`/api/admin/sessions/${plain.body.id}/duplicate`);
    expect(copy.body.prizeDraw).toEqual(PRIZE_DRAW);
  });

  it('stores a consent with the text shown and its time, only when ticked and the draw is on', async () => {
    const store = server.server.deps.store;
    const id = await session();
    const before = Date.now();
    const yes = await register(id, 'Ana', true);
    const no = await register(id, 'Ben', false);
    const unsaid = await register(id, 'Cleo');
    const consent = await store.draws.consent(id, yes.id);
    expect(consent?.consentText).toBe(SHOWN_TEXT);
    expect(Date.parse(consent!.consentedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(consent!.consentedAt)).toBeLessThanOrEqual(Date.now());
    expect(await store.draws.consent(id, no.id)).toBeUndefined();
    expect(await store.draws.consent(id, unsaid.id)).toBeUndefined();
    const off = await session(null);
    const ticked = await register(off, 'Dan', true);
    expect(await store.draws.consent(off, ticked.id)).toBeUndefined();
    const bad = await new TestApi(server).post('/api/player/register', { sessionId: id, name: 'Eve', email: 'eve@example.com', prizeConsent: 'yes' });
    expect(bad.status).toBe(400);
  });

  it('draws only consenting players, never the same one twice, then answers 409', async () => {
    const id = await session();
    const consenting = await Promise.all(['Ana', 'Ben', 'Cleo', 'Dan', 'Eve'].map((n) => register(id, n, true)));
    const others = [await register(id, 'Fay', false), await register(id, 'Gus')];
    const other = await session();
    await register(other, 'Hal', true); // consented elsewhere only

    const first = await draw(id, { count: 2 });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ eligible: 5, drawnBy: 'admin', prize: PRIZE_DRAW.prize, minScore: null });
    expect(first.body.winners).toHaveLength(2);
    const second = await draw(id, { count: 2 });
    expect(second.body.eligible).toBe(3);
    const third = await draw(id, { count: 10 });
    expect(third.body.eligible).toBe(1);
    expect(third.body.winners).toHaveLength(1);

    const winners = [first, second, third].flatMap((d) => d.body.winners as { player: { id: string; name: string; email: string }; pointsTotal: number }[]);
    expect(winners.map((w) => w.player.id).sort()).toEqual(consenting.map((p) => p.id).sort());
    for (const w of winners) {
      const p = consenting.find((c) => c.id === w.player.id)!;
      expect(w).toEqual({ player: { id: p.id, name: p.name, email: p.email }, pointsTotal: 0 });
    }
    expect(winners.some((w) => others.some((o) => o.id === w.player.id))).toBe(false);

    const none = await draw(id, { count: 1 });
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/^Nobody can win this draw/);

    const list = await api.get(`/api/admin/sessions/${id}/draws`);
    expect(list.status).toBe(200);
    expect(list.body.map((d: { id: string }) => d.id)).toEqual([third.body.id, second.body.id, first.body.id]);
    expect(list.body[2]).toEqual(first.body);
  });

  it('draws only among players who answered a question of the session and were not kicked', async () => {
    const id = await session();
    const played = await register(id, 'Ana', true);
    await register(id, 'Idle', true, undefined, false);
    const kicked = await register(id, 'Kicked', true, 500);
    expect((await api.post(`/api/admin/sessions/${id}/players/${kicked.id}/kick`)).status).toBe(204);
    const res = await draw(id, { count: 3 });
    expect(res.status).toBe(201);
    expect(res.body.eligible).toBe(1);
    expect(res.body.winners.map((w: { player: { id: string } }) => w.player.id)).toEqual([played.id]);
  });

  it('honours the minimum score', async () => {
    const id = await session();
    const low = await register(id, 'Low', true, 50);
    const high = await register(id, 'High', true, 300);
    await register(id, 'Unticked', false, 900);
    const res = await draw(id, { count: 3, minScore: 100 });
    expect(res.status).toBe(201);
    expect(res.body.eligible).toBe(1);
    expect(res.body.winners).toEqual([{ player: { id: high.id, name: 'High', email: high.email }, pointsTotal: 300 }]);
    const none = await draw(id, { count: 1, minScore: 100 });
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/with at least 100 points/);
    expect((await draw(id, { count: 1 })).body.winners[0].player.id).toBe(low.id);
  });

  it('refuses a bad count or score, an unknown session, and callers without a token', async () => {
    const id = await session();
    await register(id, 'Ana', true);
    for (const body of [{ count: 0 }, { count: 11 }, { count: 1.5 }, { count: '2' }, {}, { count: 1, minScore: -1 }]) {
      const res = await draw(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await api.get(`/api/admin/sessions/${id}/draws`)).body).toEqual([]);
    expect((await draw('00000000-0000-4000-8000-000000000000', { count: 1 })).status).toBe(404);
    expect((await api.get('/api/admin/sessions/00000000-0000-4000-8000-000000000000/draws')).status).toBe(404);
    const anonymous = new TestApi(server);
    expect((await anonymous.post(`/api/admin/sessions/${id}/draws`, { count: 1 })).status).toBe(401);
    expect((await anonymous.get(`/api/admin/sessions/${id}/draws`)).status).toBe(401);
  });

  it('shows the winners’ names, never emails, on displays only', async () => {
    const id = await session();
    const ana = await register(id, 'Ana', true);
    const display = await TestSocket.join(server.baseUrl, { sessionId: id, type: 'display' });
    const admin = await TestSocket.join(server.baseUrl, { sessionId: id, type: 'admin', token: api.token! });
    const phone = await TestSocket.join(server.baseUrl, { sessionId: id, type: 'player', playerId: ana.id, playerToken: ana.playerToken });
    try {
      const drawn = (await draw(id, { count: 1 })).body;
      const shown = display.next('winners');
      const res = await api.post(`/api/admin/sessions/${id}/draws/${drawn.id}/show`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ prize: PRIZE_DRAW.prize, names: ['Ana'] });
      expect(await shown).toEqual({ type: 'winners', prize: PRIZE_DRAW.prize, names: ['Ana'] });
      expect(display.frames.some((f) => f.includes(ana.email))).toBe(false);
      // A later message to everyone arrives after anything sent before it: no winners came first.
      const laterOnPhone = phone.next('session_info');
      const laterOnAdmin = admin.next('session_info');
      expect((await api.put(`/api/admin/sessions/${id}`, { title: 'Draw night, later' })).status).toBe(200);
      await Promise.all([laterOnPhone, laterOnAdmin]);
      expect(phone.messages.some((m) => m.type === 'winners') || admin.messages.some((m) => m.type === 'winners')).toBe(false);
      expect((await api.post(`/api/admin/sessions/${id}/draws/00000000-0000-4000-8000-000000000000/show`)).status).toBe(404);
    } finally {
      for (const s of [display, admin, phone]) s.ws.close();
    }
  });

  it('documents the draw, question file and registration routes in the OpenAPI', async () => {
    const spec = (await api.get('/api/docs/json')).body;
    const paths = spec.paths;
    expect(paths['/api/admin/sessions/{id}/draws'].post.requestBody.content['application/json'].schema.properties.count).toMatchObject({ minimum: 1, maximum: 10 });
    expect(paths['/api/admin/sessions/{id}/draws'].post.responses['201']).toBeDefined();
    expect(paths['/api/admin/sessions/{id}/draws'].get).toBeDefined();
    expect(paths['/api/admin/sessions/{id}/draws/{drawId}/show'].post).toBeDefined();
    expect(paths['/api/admin/questions/export'].get).toBeDefined();
    expect(paths['/api/admin/questions/import'].post.description).toMatch(/errors: \[\{ line, message \}\]/);
    expect(paths['/api/player/register'].post.requestBody.content['application/json'].schema.properties.prizeConsent).toMatchObject({ type: 'boolean' });
  });

  it('forgets a deleted player’s consent and wins', async () => {
    const store = server.server.deps.store;
    const id = await session();
    const ana = await register(id, 'Ana', true);
    await register(id, 'Ben', true);
    const drawn = await draw(id, { count: 2 });
    expect(drawn.status).toBe(201);
    expect((await api.delete(`/api/admin/players/${ana.id}`)).status).toBe(204);
    expect(await store.draws.consent(id, ana.id)).toBeUndefined();
    const consents = await store.db.selectFrom('prize_consents').select('player_id').where('player_id', '=', ana.id).execute();
    expect(consents).toEqual([]);
    const list = (await api.get(`/api/admin/sessions/${id}/draws`)).body;
    expect(list[0].winners.map((w: { player: { name: string } }) => w.player.name)).toEqual(['Ben']);
  });
});
