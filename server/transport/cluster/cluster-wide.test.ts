/**
 * What used to be per process, cluster-wide (DESIGN §9): two in-process instances on one
 * PostgreSQL schema and the machine's Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../../protocol/index.js';
import { MAX_FAILURES } from '../../domain/auth/login-limiter.js';
import { MediaClient, objectIdOf } from '../../domain/media/testing/client.js';
import { tinyPng } from '../../domain/media/testing/fixtures.js';
import { TestApi } from '../../testing/api.js';
import { type Game, admin, createGame, display, player } from '../ws/testing/setup.js';
import { TestSocket } from '../ws/testing/client.js';
import { type TestCluster, startTestCluster, waitUntil } from './testing/cluster.js';

describe('cluster-wide behaviour (2 instances)', () => {
  let cluster: TestCluster;
  let apiA: TestApi;
  let apiB: TestApi;

  beforeAll(async () => {
    cluster = await startTestCluster(2);
    apiA = new TestApi(cluster.servers[0]);
    apiB = new TestApi(cluster.servers[1]);
    await apiA.login();
    await apiB.login();
  });
  afterAll(() => cluster?.close());

  const fresh = (spec: Partial<Parameters<typeof createGame>[2]> = {}): Promise<Game> =>
    createGame(cluster.servers[0], apiA, { items: [{ question: { text: `Q ${Math.random()}`, correctIndex: 0, timeLimitSeconds: 30 } }], players: 1, ...spec });

  it('failed logins count across instances', async () => {
    const [A, B] = cluster.servers;
    const attempt = (api: TestApi) =>
      api.request('POST', '/api/admin/login', { username: A.adminUsername, password: 'wrong-password' }, { 'x-forwarded-for': '203.0.113.9' });
    for (let i = 0; i < MAX_FAILURES; i++) expect((await attempt(i % 2 ? apiB : apiA)).status).toBe(401);
    const refused = await attempt(apiB);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected, on either instance.
    expect((await apiA.request('POST', '/api/admin/login', { username: B.adminUsername, password: B.adminPassword }, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(200);
  });

  it('a logout on one instance closes the admin sockets of that token on every instance (4401)', async () => {
    const game = await fresh();
    const outgoing = new TestApi(cluster.servers[0]);
    const token = await outgoing.login();
    const query = { type: 'admin', sessionId: game.sessionId, token };
    const onA = await TestSocket.join(cluster.servers[0].baseUrl, query);
    const onB = await TestSocket.join(cluster.servers[1].baseUrl, query);
    const other = await admin(cluster.servers[1], game);
    expect((await outgoing.post('/api/admin/logout')).status).toBe(204);
    for (const socket of [onA, onB]) expect(await socket.closed).toEqual({ code: CLOSE_CODES.unauthorized, reason: 'Logged out' });
    expect(other.isOpen).toBe(true);
    other.close();
  });

  it('deleting a session closes its sockets on every instance with 4410', async () => {
    const game = await fresh();
    const onA = await display(cluster.servers[0], game);
    const onB = await display(cluster.servers[1], game);
    const phoneB = await player(cluster.servers[1], game, 0);
    expect((await apiB.request('DELETE', `/api/admin/sessions/${game.sessionId}`)).status).toBe(204);
    for (const socket of [onA, onB, phoneB]) expect((await socket.closed).code).toBe(CLOSE_CODES.sessionGone);
    await waitUntil('nobody owns the deleted session', () => cluster.ownersOf(game.sessionId).length === 0);
  });

  it('an edit made on one instance reaches screens on every instance (session_info)', async () => {
    const game = await fresh();
    const onA = await display(cluster.servers[0], game);
    const onB = await display(cluster.servers[1], game);
    const infos = [onA, onB].map((s) => s.next('session_info'));
    expect((await apiB.request('PUT', `/api/admin/sessions/${game.sessionId}`, { title: 'Renamed on B' })).status).toBe(200);
    for (const info of await Promise.all(infos)) expect(info.session).toMatchObject({ title: 'Renamed on B' });
    onA.close();
    onB.close();
  });

  it('a scheduled start fires once in the cluster and the game runs on its owner', async () => {
    const started: string[] = [];
    for (const s of cluster.servers) s.server.deps.lifecycle.on('started', (id) => started.push(id));
    const game = await fresh();
    const startsAt = new Date(Date.now() + 1_500).toISOString();
    expect((await apiA.request('PUT', `/api/admin/sessions/${game.sessionId}`, { startsAt })).body).toMatchObject({ status: 'scheduled' });
    const phone = await player(cluster.servers[1], game, 0);
    await phone.waitFor((m) => m.type === 'session_state' && m.phase === 'question', { timeoutMs: 20_000 });
    // Both schedulers looked; one transition won.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(started.filter((id) => id === game.sessionId)).toHaveLength(1);
    expect(cluster.ownersOf(game.sessionId)).toHaveLength(1);
    phone.close();
  });

  it('a program change made on the other instance reaches the owner', async () => {
    const game = await fresh();
    const phone = await player(cluster.servers[0], game, 0);
    await waitUntil('an owner', () => cluster.ownersOf(game.sessionId).length === 1);
    const [owner] = cluster.ownersOf(game.sessionId);
    const other = owner === cluster.servers[0] ? apiB : apiA;
    const q = await other.post('/api/admin/questions', { text: 'Added later', choices: ['a', 'b', 'c', 'd'], correctIndex: 1, points: 100, timeLimitSeconds: 10, categories: [] });
    expect((await other.post(`/api/admin/sessions/${game.sessionId}/questions`, { questionId: q.body.id })).status).toBe(201);
    const room = owner.server.realtime.rooms.get(game.sessionId)!;
    await waitUntil('the owner reloaded the program', () => room.engineState?.program.items.length === 2);
    phone.close();
  });

  it('a kick made on the non-owner reaches the owner\'s standings and closes the phone wherever it is', async () => {
    const game = await fresh({ players: 2 });
    const phones = [await player(cluster.servers[0], game, 0), await player(cluster.servers[1], game, 1)];
    await waitUntil('an owner', () => cluster.ownersOf(game.sessionId).length === 1);
    const [owner] = cluster.ownersOf(game.sessionId);
    const other = owner === cluster.servers[0] ? apiB : apiA;
    const otherServer = owner === cluster.servers[0] ? cluster.servers[1] : cluster.servers[0];
    const screen = await display(otherServer, game);
    const opened = phones.map((p) => p.next('session_state', (m) => m.phase === 'question'));
    expect((await apiA.post(`/api/admin/sessions/${game.sessionId}/start`)).status).toBe(200);
    await Promise.all(opened);
    // Both answer: both on the board.
    const board = screen.next('leaderboard_update');
    for (const p of phones) {
      const accepted = p.next('answer_accepted');
      p.send({ type: 'submit_answer', questionId: game.questions[0].id, selectedIndex: 0 });
      await accepted;
    }
    expect((await board).leaderboard).toHaveLength(2);
    const kicked = game.players[1];
    const after = screen.next('leaderboard_update');
    expect((await other.post(`/api/admin/sessions/${game.sessionId}/players/${kicked.id}/kick`)).status).toBe(204);
    expect((await after).leaderboard.map((e: { player: { id: string } }) => e.player.id)).toEqual([game.players[0].id]);
    expect((await phones[1].closed).code).toBe(CLOSE_CODES.removed);
    phones[0].close();
    screen.close();
  });

  it('an upload link is single-use across instances', async () => {
    const [A, B] = cluster.servers;
    const onA = new MediaClient(A);
    await onA.login();
    const url = await onA.uploadURL();
    const viaB = url.replace(new URL(A.baseUrl).host, new URL(B.baseUrl).host);
    expect((await onA.put(viaB, tinyPng(), 'image/png')).status).toBe(200);
    const again = await onA.put(url, tinyPng(), 'image/png');
    expect(again.status).toBe(403);
    expect(JSON.parse(again.text)).toEqual({ message: 'The upload link has already been used' });
    expect((await onA.http(`${B.baseUrl}/media/${objectIdOf(url)}`)).status).toBe(200);
  });
});
