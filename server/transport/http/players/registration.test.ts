/**
 * Registration rules (DESIGN §15) through the real server, on both databases: the session cap,
 * the per-address limit and the burst line admins see, name refusals, generated nicknames, and a
 * token that opens only its own session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../../../protocol/index.js';
import { hashToken } from '../../../domain/auth/passwords.js';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';
import { TestSocket } from '../../ws/testing/client.js';

describe.each(DIALECTS)('registration rules on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;

  beforeAll(async () => {
    // A small burst and a slow refill, so the test reaches the limit without registering 100.
    server = await startTestServer({ dialect, env: { REGISTRATION_LIMIT: '4,0.01' } });
    api = new TestApi(server);
    await api.login();
  });
  afterAll(() => server?.close());

  const newSession = async (body: Record<string, unknown> = {}) => (await api.post('/api/admin/sessions', { title: 'Rules', ...body })).body;
  const register = (sessionId: string, name: string, email: string, extra: Record<string, unknown> = {}) =>
    api.post('/api/player/register', { sessionId, name, email, ...extra });

  it('keeps maxPlayers in the session, refuses the one over it, and limits new players per address', async () => {
    const session = await newSession({ maxPlayers: 2, nicknames: 'generated' });
    expect(session).toMatchObject({ maxPlayers: 2, nicknames: 'generated' });
    expect((await api.post('/api/admin/sessions', { title: 'Bad', maxPlayers: 0 })).status).toBe(400);
    expect((await api.post('/api/admin/sessions', { title: 'Bad', maxPlayers: 100_001 })).status).toBe(400);
    expect((await api.post('/api/admin/sessions', { title: 'Bad', nicknames: 'silly' })).status).toBe(400);

    // Generated nicknames: the typed name is ignored, even a refused one.
    const first = await register(session.id, 'sh1t', 'one@example.com');
    expect(first.status).toBe(201);
    expect(first.body.name).toMatch(/^\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+$/u);
    expect((await register(session.id, 'Two', 'two@example.com')).status).toBe(201);
    const full = await register(session.id, 'Three', 'three@example.com');
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ message: 'This game is full' });

    // Two new players so far; refusals (full, name, email in use) did not count: two more pass.
    const open = await newSession();
    expect((await register(open.id, 'Chloé', 'chloe@example.com')).status).toBe(201);
    const refusedName = await register(open.id, 'ΑDMIN', 'admin@example.com');
    expect(refusedName.status).toBe(400);
    expect(refusedName.body).toEqual({ message: 'Please choose another name', reason: 'reserved' });
    expect((await register(open.id, 'Other', 'CHLOE@example.com')).status).toBe(409);
    const admin = await TestSocket.join(server.baseUrl, { type: 'admin', sessionId: open.id, token: api.token! });
    expect((await register(open.id, 'José María', 'jose@example.com')).status).toBe(201);
    // The fifth new player from this address waits.
    const burst = admin.next('registration_burst');
    const limited = await register(open.id, 'Bot', 'bot@example.com');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(typeof limited.body.message).toBe('string');
    expect(await burst).toMatchObject({ type: 'registration_burst', refused: 1, addresses: 1 });
    await admin.close();
  });

  it('opens a socket only for the session the token was issued for', async () => {
    const [a, b] = [await newSession(), await newSession()];
    // Stored directly: this address spent its registrations in the test above.
    const token = 'a-device-token-of-session-a';
    const row = await server.server.deps.store.players.register({ sessionId: a.id, name: 'Ann', email: 'ann@example.com', tokenHash: hashToken(token), heldTokenHash: null, maxPlayers: 10 });
    const playerId = (row as { player: { id: string } }).player.id;
    const own = await TestSocket.join(server.baseUrl, { type: 'player', sessionId: a.id, playerId, playerToken: token });
    expect(own.messages[0]).toMatchObject({ type: 'session_state', view: 'player', playerId });
    await own.close();
    const wrong = await TestSocket.open(server.baseUrl, { type: 'player', sessionId: b.id, playerId, playerToken: token });
    expect(await wrong.closed).toEqual({ code: CLOSE_CODES.unauthorized, reason: 'Invalid player token' });
  });
});
