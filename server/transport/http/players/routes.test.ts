import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../domain/auth/passwords.js';
import { DEFAULT_RETURN_MESSAGE } from '../../../domain/sessions/join-links.js';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const PLAYER_KEYS = ['id', 'name', 'email', 'createdAt', 'sessionId', 'joinOrder', 'hidden', 'kicked'].sort();

describe.each(DIALECTS)('player registration and admin on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;
  let player: TestApi;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    api = new TestApi(server);
    player = new TestApi(server);
    await api.login();
  });
  afterAll(() => server?.close());

  const store = () => server.server.deps.store;
  const newSession = async (body: Record<string, unknown> = {}) =>
    (await api.post('/api/admin/sessions', { title: 'Players', ...body })).body.id as string;
  const register = (body: Record<string, unknown>) => player.post('/api/player/register', body);
  const playerCount = async () => (await api.get('/api/admin/players')).body.length as number;

  it('registers a player: 201 with the player, the session and a secret playerToken', async () => {
    const sessionId = await newSession();
    const res = await register({ name: '  Ada  ', email: ' Ada@Example.com ', sessionId });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Ada',
      email: 'Ada@Example.com',
      createdAt: expect.any(String),
      sessionId,
      joinOrder: 1,
      hidden: false,
      kicked: false,
      playerToken: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    expect(await store().players.checkToken(res.body.id, hashToken(res.body.playerToken), sessionId)).toMatchObject({ ok: true, player: { id: res.body.id } });
    // Only the hash is stored.
    const stored = await store().db.selectFrom('player_tokens').select('token_hash').where('player_id', '=', res.body.id).execute();
    expect(stored.map((r) => r.token_hash)).toEqual([hashToken(res.body.playerToken)]);
  });

  it('keeps an email to its own device in a game: another device gets 409, the same device its player, another game a new one', async () => {
    const sessionId = await newSession();
    const first = await register({ name: 'Grace', email: 'grace@example.com', sessionId });
    const thief = await register({ name: 'Troll', email: 'GRACE@EXAMPLE.COM', sessionId });
    expect(thief.status).toBe(409);
    expect(thief.body).toEqual({ message: 'This email is already playing in this game' });
    // A token of another player is no key either.
    const other = await register({ name: 'Linus', email: 'linus@example.com', sessionId });
    expect((await register({ name: 'Troll', email: 'grace@example.com', sessionId, playerToken: other.body.playerToken })).status).toBe(409);
    const again = await register({ name: 'Grace', email: 'Grace@Example.com', sessionId, playerToken: first.body.playerToken });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: first.body.id, name: 'Grace', playerToken: first.body.playerToken });
    const elsewhere = await register({ name: 'Grace H', email: 'grace@example.com', sessionId: await newSession(), playerToken: first.body.playerToken });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
    expect(elsewhere.body.playerToken).not.toBe(first.body.playerToken);
    expect(elsewhere.body.name).toBe('Grace H');
  });

  it('gives an email to one device when registrations arrive at once', async () => {
    const sessionId = await newSession();
    const results = await Promise.all(
      ['rush@example.com', 'RUSH@example.com', 'Rush@Example.com', 'rush@EXAMPLE.com'].map((email) => register({ name: 'Rush', email, sessionId })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('lets players join draft, scheduled and live sessions, and refuses a finished one with a message', async () => {
    const draft = await newSession();
    const scheduled = await newSession({ startsAt: new Date(Date.now() + 3_600_000).toISOString() });
    const live = await newSession();
    await api.post(`/api/admin/sessions/${live}/start`);
    for (const sessionId of [draft, scheduled, live]) {
      expect((await register({ name: 'Early', email: `early-${sessionId}@example.com`, sessionId })).status).toBe(201);
    }
    const finished = await newSession();
    await api.post(`/api/admin/sessions/${finished}/start`);
    await api.post(`/api/admin/sessions/${finished}/stop`);
    const before = await playerCount();
    const res = await register({ name: 'Late', email: 'late@example.com', sessionId: finished });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'This game has ended. Thanks for playing!' });
    expect(await playerCount()).toBe(before);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['a 51-character name', { name: 'x'.repeat(51) }],
    ['a blank name', { name: '   ' }],
    ['no name', { name: undefined }],
    ['a name of the wrong type', { name: 42 }],
    ['a NUL character in the name', { name: 'Ada\u0000' }],
    ['a NUL character in the email', { email: 'ada\u0000@example.com' }],
    ['a NUL character in the session id', { sessionId: 'a\u0000b' }],
    ['a bad email', { email: 'not-an-email' }],
    ['an email without a domain', { email: 'ada@' }],
    ['a blank email', { email: '  ' }],
    ['no session', { sessionId: undefined }],
  ];
  it.each(invalid)('refuses registration with %s (400, no player stored)', async (_name, patch) => {
    const sessionId = await newSession();
    const before = await playerCount();
    const res = await register({ name: 'Valid Name', email: 'valid@example.com', sessionId, ...patch });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(await playerCount()).toBe(before);
  });

  it('accepts a name of exactly 50 characters; answers 404 for an unknown session and 400 for malformed JSON', async () => {
    const sessionId = await newSession();
    expect((await register({ name: 'y'.repeat(50), email: 'fifty@example.com', sessionId })).status).toBe(201);
    const before = await playerCount();
    const unknown = await register({ name: 'Lost', email: 'lost@example.com', sessionId: UNKNOWN });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Session not found' });
    const malformed = await player.request('POST', '/api/player/register', '{"name":"x"', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Malformed JSON body' });
    expect(await playerCount()).toBe(before);
  });

  it('lists players for the admin, newest first, with exactly id, name, email and createdAt', async () => {
    const sessionId = await newSession();
    const older = (await register({ name: 'Older', email: 'older@example.com', sessionId })).body;
    await new Promise((r) => setTimeout(r, 5));
    const newer = (await register({ name: 'Newer', email: 'newer@example.com', sessionId })).body;
    const res = await api.get('/api/admin/players');
    expect(res.status).toBe(200);
    for (const p of res.body) expect(Object.keys(p).sort()).toEqual(PLAYER_KEYS);
    const ids = res.body.map((p: { id: string }) => p.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(res.body.find((p: { id: string }) => p.id === older.id)).toEqual({
      id: older.id, name: 'Older', email: 'older@example.com', createdAt: older.createdAt, sessionId, joinOrder: 1, hidden: false, kicked: false,
    });
    expect(JSON.stringify(res.body)).not.toContain('playerToken');
  });

  it('deletes a player with their answers, scores and tokens (204), then 404', async () => {
    const sessionId = await newSession();
    const question = (await api.post('/api/admin/questions', { text: 'Q?', choices: ['a', 'b', 'c', 'd'] })).body;
    const doomed = (await register({ name: 'Doomed', email: 'doomed@example.com', sessionId })).body;
    const kept = (await register({ name: 'Kept', email: 'kept@example.com', sessionId })).body;
    const now = new Date().toISOString();
    const answer = (playerId: string) => ({
      sessionId, playerId, questionId: question.id, asking: 0, selectedIndex: 1, isCorrect: false, pointsEarned: 0, elapsedMs: 900, answeredAt: now,
    });
    await store().scores.saveAnswers([answer(doomed.id), answer(kept.id)]);
    await store().scores.saveScores(sessionId, [{ playerId: doomed.id, pointsTotal: 30, reachedAt: now }, { playerId: kept.id, pointsTotal: 20, reachedAt: now }]);

    const res = await api.delete(`/api/admin/players/${doomed.id}`);
    expect(res.status).toBe(204);
    const rowsOf = async (table: 'answers' | 'scores' | 'player_tokens', playerId: string) =>
      (await store().db.selectFrom(table).select('player_id').where('player_id', '=', playerId).execute()).length;
    for (const table of ['answers', 'scores', 'player_tokens'] as const) {
      expect(await rowsOf(table, doomed.id), table).toBe(0);
      expect(await rowsOf(table, kept.id), table).toBe(1);
    }
    expect((await api.get('/api/admin/players')).body.map((p: { id: string }) => p.id)).not.toContain(doomed.id);
    expect(await store().scores.listScores(sessionId)).toEqual([expect.objectContaining({ playerId: kept.id, pointsTotal: 20 })]);

    expect((await api.delete('/api/admin/players/a%00b')).status).toBe(400);
    const again = await api.delete(`/api/admin/players/${doomed.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Player not found' });
  });

  it('refuses the admin player calls without a token', async () => {
    const sessionId = await newSession();
    const victim = (await register({ name: 'Safe', email: 'safe@example.com', sessionId })).body;
    const anonymous = new TestApi(server);
    expect((await anonymous.get('/api/admin/players')).status).toBe(401);
    const del = await anonymous.delete(`/api/admin/players/${victim.id}`);
    expect(del.status).toBe(401);
    expect(del.body).toEqual({ message: 'Authentication required' });
    expect(await store().players.get(victim.id)).toBeDefined();
  });
});

describe.each(DIALECTS)('signed join links required (REQUIRE_SIGNED_JOIN) on %s', (dialect) => {
  const TTL_SECONDS = 60;
  let server: TestServer;
  let api: TestApi;
  let phone: TestApi;

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { REQUIRE_SIGNED_JOIN: 'true', JOIN_LINK_TTL_SECONDS: String(TTL_SECONDS) } });
    api = new TestApi(server);
    phone = new TestApi(server);
    await api.login();
  });
  afterAll(() => server?.close());

  const newSession = async (returnMessage?: string) =>
    (await api.post('/api/admin/sessions', { title: 'Signed', ...(returnMessage ? { returnMessage } : {}) })).body.id as string;
  /** What a phone gets from the display's QR code: t and sig from the join URL. */
  async function joinLink(sessionId: string) {
    const res = await api.get(`/api/sessions/${sessionId}/join-url`);
    const params = new URL(res.body.url, 'http://x').searchParams;
    return { timestamp: Number(params.get('t')), signature: params.get('sig')! };
  }
  const register = (sessionId: string, link: Record<string, unknown> = {}, email = 'phone@example.com') =>
    phone.post('/api/player/register', { name: 'Phone', email, sessionId, ...link });
  const playerCount = async () => (await api.get('/api/admin/players')).body.length as number;

  it('refuses registration without a signature: 403 with returnToTheater and the default message', async () => {
    const sessionId = await newSession();
    const before = await playerCount();
    const res = await register(sessionId);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: DEFAULT_RETURN_MESSAGE, returnToTheater: true });
    expect(DEFAULT_RETURN_MESSAGE).toBe('This game can only be joined from the theatre. Please scan the QR code on the screen.');
    expect(await playerCount()).toBe(before);
  });

  it("uses the session's return message when it has one", async () => {
    const sessionId = await newSession('Head back to Screen 3 and scan the code');
    const res = await register(sessionId, { timestamp: Date.now() });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Head back to Screen 3 and scan the code', returnToTheater: true });
  });

  it('accepts the link from the join URL (t as a number or a string)', async () => {
    const sessionId = await newSession();
    const link = await joinLink(sessionId);
    const res = await register(sessionId, link, 'signed@example.com');
    expect(res.status).toBe(201);
    expect(res.body.playerToken).toEqual(expect.any(String));
    const asString = await register(sessionId, { timestamp: String(link.timestamp), signature: link.signature }, 'signed2@example.com');
    expect(asString.status).toBe(201);
  });

  it('refuses tampered, foreign and expired links with 403, storing no player', async () => {
    const sessionId = await newSession();
    const other = await newSession();
    const link = await joinLink(sessionId);
    const before = await playerCount();
    const flipped = (link.signature[0] === 'a' ? 'b' : 'a') + link.signature.slice(1);
    const staleAt = Date.now() - (TTL_SECONDS + 5) * 1000;
    const expired = { timestamp: staleAt, signature: server.server.deps.joinLinks.sign(sessionId, staleAt) };
    for (const [name, sid, bad] of [
      ['flipped signature', sessionId, { ...link, signature: flipped }],
      ['moved timestamp', sessionId, { ...link, timestamp: link.timestamp + 1 }],
      ['link of another session', other, link],
      ['expired link', sessionId, expired],
      ['garbage', sessionId, { timestamp: 'yesterday', signature: 'nope' }],
    ] as [string, string, Record<string, unknown>][]) {
      const res = await register(sid, bad, `${name.replace(/\W/g, '')}@example.com`);
      expect(res.status, name).toBe(403);
      expect(res.body.returnToTheater, name).toBe(true);
    }
    expect(await playerCount()).toBe(before);
  });

  it('answers validate-access with { valid, message }', async () => {
    const sessionId = await newSession('Only in the cinema');
    const link = await joinLink(sessionId);
    const ok = await phone.post(`/api/sessions/${sessionId}/validate-access`, link);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ valid: true, message: expect.any(String) });

    for (const bad of [{}, { ...link, signature: '0'.repeat(64) }, { timestamp: Date.now() - 3_600_000, signature: link.signature }]) {
      const res = await phone.post(`/api/sessions/${sessionId}/validate-access`, bad);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ valid: false, message: 'Only in the cinema' });
    }
    const otherSession = await newSession();
    const foreign = await phone.post(`/api/sessions/${otherSession}/validate-access`, link);
    expect(foreign.body).toEqual({ valid: false, message: DEFAULT_RETURN_MESSAGE });

    expect((await phone.post(`/api/sessions/${UNKNOWN}/validate-access`, link)).status).toBe(404);
    const wrongType = await phone.post(`/api/sessions/${sessionId}/validate-access`, { timestamp: { t: 1 }, signature: [] });
    expect(wrongType.status).toBe(400);
    const malformed = await phone.request('POST', `/api/sessions/${sessionId}/validate-access`, '{', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Malformed JSON body' });
  });
});
