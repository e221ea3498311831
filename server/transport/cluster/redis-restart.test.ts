/**
 * Redis restarted (empty: no persistence) in the middle of a question, under two in-process
 * instances: they reconnect, the game goes on by itself, and no confirmed answer is lost.
 * The test runs its own redis-server on a free port; the machine's Redis is never touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../testing/server.js';
import { TestApi } from '../../testing/api.js';
import type { TestSocket } from '../ws/testing/client.js';
import { type Game, createGame, player } from '../ws/testing/setup.js';
import { waitUntil } from './testing/cluster.js';
import { type OwnRedisCluster, startOwnRedisCluster } from './testing/redis-server.js';

describe('Redis restarted during a game (2 instances)', () => {
  let cluster: OwnRedisCluster;
  let servers: TestServer[];
  let game: Game;

  beforeAll(async () => {
    cluster = await startOwnRedisCluster(['r-1', 'r-2']);
    servers = cluster.servers;
    const api = new TestApi(servers[0]);
    await api.login();
    game = await createGame(servers[0], api, { items: [{ question: { text: 'Survives a Redis restart?', correctIndex: 2, points: 100, timeLimitSeconds: 60 } }], players: 4 });
  }, 60_000);

  afterAll(() => cluster?.close());

  async function answer(socket: TestSocket, questionId: string, selectedIndex: number) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const from = socket.messages.length;
      socket.send({ type: 'submit_answer', questionId, selectedIndex });
      const reply = await socket.waitFor((m) => m.type === 'answer_accepted' || m.type === 'error', { from, timeoutMs: 30_000 });
      if (reply.type === 'answer_accepted') return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('never accepted');
  }

  it('the cluster recovers by itself; confirmed answers are kept and every phone gets its result', { timeout: 120_000 }, async () => {
    const phones = [await player(servers[0], game, 0), await player(servers[1], game, 1), await player(servers[0], game, 2), await player(servers[1], game, 3)];
    const api = new TestApi(servers[1]);
    await api.login();
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`, {})).status).toBe(200);
    const [q] = game.questions;
    for (const p of phones) await p.waitFor((m) => m.type === 'session_state' && m.phase === 'question', { timeoutMs: 15_000 });
    await answer(phones[0], q.id, 2);
    await answer(phones[1], q.id, 1);

    // Redis goes away and comes back empty: no leases, streams or subscriptions survive.
    await cluster.redis.kill();
    await cluster.redis.restart();

    // Reconnected sockets get a fresh state from the (new or same) owner, then play on.
    await answer(phones[2], q.id, 2);
    await answer(phones[3], q.id, 0);
    const results = await Promise.all(phones.map((p) => p.waitFor((m) => m.type === 'answer_result' && m.questionId === q.id, { timeoutMs: 60_000 })));
    expect(results.map((r) => r.isCorrect)).toEqual([true, false, true, false]);
    const rows = await servers[0].server.deps.store.db
      .selectFrom('answers').select(['player_id', 'points_earned']).where('session_id', '=', game.sessionId).execute();
    expect(rows).toHaveLength(4);
    for (const [i, r] of results.entries()) expect(rows.find((row) => row.player_id === game.players[i].id)?.points_earned).toBe(r.pointsEarned);
    await waitUntil('exactly one owner again', () => servers.filter((s) => s.server.realtime.cluster?.owner.epochOf(game.sessionId) !== undefined).length === 1);
    for (const p of phones) p.close();
  });
});
