/**
 * Redis connections lost at random points under two instances (DESIGN §16): both reach Redis
 * through a cuttable proxy whose connections are dropped right after answers go in (and once
 * refused outright for a moment). No error of an ioredis client (commands, subscriber, inbox
 * readers, lease, login limiter, readiness) reaches the process; the game plays on, every
 * confirmed answer is stored and every phone gets its result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../testing/api.js';
import type { CuttableProxy } from '../../testing/cuttable-proxy.js';
import type { TestServer } from '../../testing/server.js';
import type { TestSocket } from '../ws/testing/client.js';
import { type Game, createGame, player } from '../ws/testing/setup.js';
import { type ProxiedCluster, startProxiedCluster } from './testing/proxied-cluster.js';

const PHONES = 6;
const QUESTIONS = 2;

describe('Redis connections lost at random points (2 instances)', () => {
  let cluster: ProxiedCluster;
  let proxy: CuttableProxy;
  let servers: TestServer[];
  let game: Game;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    cluster = await startProxiedCluster(2);
    ({ proxy, servers } = cluster);
    const api = new TestApi(servers[0]);
    await api.login();
    game = await createGame(servers[0], api, {
      items: Array.from({ length: QUESTIONS }, (_, i) => ({ question: { text: `Question ${i + 1}?`, correctIndex: 1, timeLimitSeconds: 120 } })),
      players: PHONES,
    });
  }, 60_000);

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await cluster?.close();
  });

  /** Sends until accepted: an answer sent while Redis is away may be refused with an error to retry. */
  async function answer(socket: TestSocket, questionId: string, selectedIndex: number): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const from = socket.messages.length;
      socket.send({ type: 'submit_answer', questionId, selectedIndex });
      const reply = await socket.waitFor((m) => m.type === 'answer_accepted' || m.type === 'error', { from, timeoutMs: 30_000 });
      if (reply.type === 'answer_accepted') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('never accepted');
  }

  it('never crashes an instance; every confirmed answer is stored and every phone gets its result', { timeout: 90_000 }, async () => {
    const phones: TestSocket[] = [];
    for (let i = 0; i < PHONES; i++) phones.push(await player(servers[i % 2], game, i));
    const api = new TestApi(servers[1]);
    await api.login();
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`, {})).status).toBe(200);

    let cuts = 0;
    for (const [qi, q] of game.questions.entries()) {
      for (const p of phones) await p.waitFor((m) => m.type === 'session_state' && m.phase === 'question' && m.question?.id === q.id, { timeoutMs: 30_000 });
      const results = phones.map((p) => p.waitFor((m) => m.type === 'answer_result' && m.questionId === q.id, { timeoutMs: 60_000 }));
      for (const [i, p] of phones.entries()) {
        await answer(p, q.id, i % 2);
        // A random moment after the answer went in: the relay, the owner's inbox read and its ack are in flight.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
        if (i === 2 && qi === 0) {
          await proxy.cut();
          await new Promise((resolve) => setTimeout(resolve, 100));
          await proxy.restore();
        } else proxy.resetConnections();
        cuts++;
      }
      const got = await Promise.all(results);
      expect(got.map((r) => r.isCorrect)).toEqual(phones.map((_, i) => i % 2 === 1));
    }

    expect(cuts).toBe(PHONES * QUESTIONS);
    expect(uncaught).toEqual([]);
    const rows = await servers[0].server.deps.store.db.selectFrom('answers').select('player_id').where('session_id', '=', game.sessionId).execute();
    const logged = await servers[0].server.deps.store.db.selectFrom('answer_log').select('player_id').where('session_id', '=', game.sessionId).execute();
    expect(rows.length + logged.length).toBe(PHONES * QUESTIONS);
    for (const p of phones) p.close();
  });
});
