/**
 * Redis away for a while mid-question under two instances (DESIGN §16), both reaching it through
 * a cuttable proxy: the owner keeps its game (no failover when Redis returns: its epoch is
 * unchanged), an answer sent to the other instance during the cut is stamped there and scored by
 * that stamp once it reaches the owner, its phone is told, and a phone reconnecting during the cut
 * gets its state once Redis is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../testing/api.js';
import type { CuttableProxy } from '../../testing/cuttable-proxy.js';
import type { TestServer } from '../../testing/server.js';
import { type Game, createGame, player } from '../ws/testing/setup.js';
import { type ProxiedCluster, startProxiedCluster } from './testing/proxied-cluster.js';
import { TEST_LEASE_TTL_MS, waitUntil } from './testing/cluster.js';

const TIME_LIMIT_S = 60;
/** How long Redis stays away after the held answer was sent: longer than a lease lives. */
const HELD_FOR_MS = TEST_LEASE_TTL_MS + 1_000;

describe('Redis away mid-question (2 instances)', () => {
  let cluster: ProxiedCluster;
  let proxy: CuttableProxy;
  let servers: TestServer[];
  let game: Game;

  beforeAll(async () => {
    cluster = await startProxiedCluster(2);
    ({ proxy, servers } = cluster);
    const api = new TestApi(servers[0]);
    await api.login();
    game = await createGame(servers[0], api, { items: [{ question: { text: 'Held by Redis?', correctIndex: 1, points: 1000, timeLimitSeconds: TIME_LIMIT_S } }], players: 3 });
  }, 60_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('keeps the owner, stamps a held answer where it arrived, and brings reconnects back', { timeout: 60_000 }, async () => {
    const ownerIndex = () => servers.findIndex((s) => s.server.realtime.cluster?.owner.epochOf(game.sessionId) !== undefined);
    const api = new TestApi(servers[0]);
    await api.login();
    // The owner is whoever takes the lease first; the phones go to both.
    const first = await player(servers[0], game, 0);
    await waitUntil('an owner', () => ownerIndex() >= 0);
    const owner = ownerIndex();
    const other = servers[1 - owner];
    const epoch = servers[owner].server.realtime.cluster!.owner.epochOf(game.sessionId);
    const held = await player(other, game, 1);
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`, {})).status).toBe(200);
    const [q] = game.questions;
    const open = await held.waitFor((m) => m.type === 'session_state' && m.phase === 'question', { timeoutMs: 15_000 });
    await first.waitFor((m) => m.type === 'session_state' && m.phase === 'question', { timeoutMs: 15_000 });
    const startedAt = open.endsAt - TIME_LIMIT_S * 1000;

    await proxy.cut();
    const sentAt = Date.now();
    const from = held.messages.length;
    // Told either way (DESIGN §16): its answer_accepted, or a fresh state showing it taken.
    const accepted = held.waitFor((m) => m.type === 'answer_accepted' || (m.type === 'session_state' && m.answered === true), { from, timeoutMs: 20_000 });
    held.send({ type: 'submit_answer', questionId: q.id, selectedIndex: 1 });
    // A phone coming back to the other instance while Redis is away.
    await first.close();
    const back = player(other, game, 0);
    await new Promise((resolve) => setTimeout(resolve, HELD_FOR_MS));
    await proxy.restore();
    const restoredAt = Date.now();

    await accepted;
    const again = await back;
    expect(again.messages[0]).toMatchObject({ type: 'session_state', phase: 'question', question: { id: q.id } });
    // The same owner, with the same epoch: no failover was needed.
    await waitUntil('the owner publishing again', () => servers[owner].server.realtime.cluster!.owner.mayPublish(game.sessionId) !== undefined).catch((err: Error) => {
      // Seen once in a loaded CI run (session 45), not reproduced since: say where the game went.
      const where = servers.map((s, i) => {
        const o = s.server.realtime.cluster!.owner;
        return `instance ${i}${i === owner ? ' (owner)' : ''}: epoch ${o.epochOf(game.sessionId)}, publishes ${o.mayPublish(game.sessionId) !== undefined}`;
      });
      throw new Error(`${err.message} (${Date.now() - restoredAt} ms after Redis came back; ${where.join('; ')})`);
    });
    expect(ownerIndex()).toBe(owner);
    expect(servers[owner].server.realtime.cluster!.owner.epochOf(game.sessionId)).toBe(epoch);

    // Scored by when it reached the instance, not by when Redis carried it on.
    const row = await servers[0].server.deps.store.db
      .selectFrom('answers')
      .select(['elapsed_ms', 'points_earned'])
      .where('session_id', '=', game.sessionId)
      .where('player_id', '=', game.players[1].id)
      .executeTakeFirstOrThrow();
    expect(row.elapsed_ms).toBeGreaterThanOrEqual(sentAt - startedAt - 100);
    expect(row.elapsed_ms).toBeLessThan(restoredAt - startedAt - HELD_FOR_MS / 2);
    held.close();
    again.close();
  });
});
