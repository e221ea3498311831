/**
 * A player's own frames (answer_accepted, answer_result, replies) travel only to the instances
 * holding that player's sockets (relay.ts), across a reconnect to another instance, a player
 * with sockets on two instances, and an owner change. Three in-process instances; a spy
 * subscribed to the test's channels sees which channel each frame took.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../testing/api.js';
import { testRedis } from '../../testing/redis.js';
import type { AnyMessage, TestSocket } from '../ws/testing/client.js';
import { type Game, createGame, player } from '../ws/testing/setup.js';
import { decodeOutbox } from './envelope.js';
import { type TestCluster, startTestCluster, waitUntil } from './testing/cluster.js';

interface Seen {
  channel: string;
  header: Record<string, any>;
  type: string;
}

const later = (s: TestSocket, type: string, match: (m: AnyMessage) => boolean = () => true) =>
  s.waitFor((m) => m.type === type && match(m), { from: s.messages.length, timeoutMs: 30_000 });

describe('per-player frames go only where the player is (3 instances)', () => {
  let cluster: TestCluster;
  let game: Game;
  let spy: Redis;
  const seen: Seen[] = [];

  beforeAll(async () => {
    cluster = await startTestCluster(3);
    const api = new TestApi(cluster.servers[0]);
    await api.login();
    game = await createGame(cluster.servers[0], api, {
      items: [{ question: { text: 'Who scored Vertigo?', correctIndex: 1, timeLimitSeconds: 60 } }, { question: { text: 'Year of Rashomon?', correctIndex: 2, timeLimitSeconds: 60 } }],
      players: 3,
    });
    spy = testRedis();
    spy.on('messageBuffer', (channel: Buffer, raw: Buffer) => {
      const decoded = decodeOutbox(raw);
      if (!decoded) return;
      const type = decoded.frame.length ? (JSON.parse(decoded.frame.toString()) as { type: string }).type : '';
      seen.push({ channel: channel.toString(), header: decoded.header, type });
    });
    const { prefix } = cluster;
    await spy.subscribe(`${prefix}:out:${game.sessionId}`, `${prefix}:to:node-1`, `${prefix}:to:node-2`, `${prefix}:to:node-3`);
  });
  afterAll(async () => {
    spy?.disconnect();
    await cluster?.close();
  });

  const channelsOf = (playerIndex: number, type: string, from = 0) =>
    [...new Set(seen.slice(from).filter((s) => s.header.k === 'player' && s.header.p === game.players[playerIndex].id && s.type === type).map((s) => s.channel))].sort();

  it('reaches the player on every instance holding one of its sockets, and nowhere else', { timeout: 120_000 }, async () => {
    const [A, B, C] = cluster.servers;
    const to = (node: number) => `${cluster.prefix}:to:node-${node}`;
    // Player 0 on B; player 1 on A and on C (two tabs); player 2 on C, then moving to A.
    const p0 = await player(B, game, 0);
    const p1a = await player(A, game, 1);
    const p1c = await player(C, game, 1);
    let p2 = await player(C, game, 2);
    const started = [p0, p1a, p1c, p2].map((s) => later(s, 'session_state', (m) => m.phase === 'question'));
    const api = new TestApi(B);
    await api.login();
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`, {})).status).toBe(200);
    await Promise.all(started);
    const [q1, q2] = game.questions;

    // Each socket's first state went to its own instance only.
    const joins = seen.filter((s) => s.header.k === 'conn');
    expect(joins.length).toBeGreaterThanOrEqual(4);
    for (const j of joins) expect(j.channel).toBe(to(Number(j.header.c.split('/')[0].slice('node-'.length))));

    const answer = async (socket: TestSocket, questionId: string, selectedIndex: number, also: TestSocket[] = []) => {
      const accepted = [socket, ...also].map((s) => later(s, 'answer_accepted'));
      socket.send({ type: 'submit_answer', questionId, selectedIndex });
      await Promise.all(accepted);
    };
    await answer(p0, q1.id, 1);
    expect(channelsOf(0, 'answer_accepted')).toEqual([to(2)]);
    await answer(p1a, q1.id, 0, [p1c]);
    expect(channelsOf(1, 'answer_accepted')).toEqual([to(1), to(3)]);

    // Player 2 drops off C and comes back on A before answering.
    await p2.close();
    p2 = await player(A, game, 2);
    const results = [p0, p1a, p1c, p2].map((s) => later(s, 'answer_result', (m) => m.questionId === q1.id));
    await answer(p2, q1.id, 1);
    expect(channelsOf(2, 'answer_accepted')).toEqual([to(1)]);
    await Promise.all(results);
    expect(channelsOf(0, 'answer_result')).toEqual([to(2)]);
    expect(channelsOf(1, 'answer_result')).toEqual([to(1), to(3)]);
    expect(channelsOf(2, 'answer_result')).toEqual([to(1)]);
    // Nothing for one player went on the session's channel: every route was known.
    expect(seen.filter((s) => s.channel.includes(':out:') && (s.header.k === 'player' || s.header.k === 'conn'))).toEqual([]);

    // The owner lets the game go: the next owner (maybe the same instance, with a new epoch)
    // starts with no routes, learns them again from the sockets' new announcements, and every
    // player still gets its own frames.
    const [before] = cluster.ownersOf(game.sessionId);
    const epochBefore = before.server.realtime.cluster!.owner.epochOf(game.sessionId)!;
    await before.server.realtime.cluster!.owner.release(game.sessionId);
    await waitUntil('a new owner', () => cluster.ownersOf(game.sessionId).some((s) => (s.server.realtime.cluster!.owner.epochOf(game.sessionId) ?? 0) > epochBefore));
    const from = seen.length;
    const second = [p0, p1a, p1c, p2].map((s) => s.waitFor((m) => m.type === 'session_state' && m.phase === 'question' && m.question?.id === q2.id, { timeoutMs: 60_000 }));
    await Promise.all(second);
    const results2 = [p0, p1a, p1c, p2].map((s) => later(s, 'answer_result', (m) => m.questionId === q2.id));
    await answer(p0, q2.id, 2);
    await answer(p1c, q2.id, 2, [p1a]);
    await answer(p2, q2.id, 0);
    const [r0, r1a, r1c, r2] = await Promise.all(results2);
    expect([r0.isCorrect, r1a.isCorrect, r1c.isCorrect, r2.isCorrect]).toEqual([true, true, true, false]);
    expect(channelsOf(0, 'answer_result', from)).toEqual([to(2)]);
    expect(channelsOf(1, 'answer_result', from)).toEqual([to(1), to(3)]);
    expect(channelsOf(2, 'answer_result', from)).toEqual([to(1)]);
    for (const s of [p0, p1a, p1c, p2]) s.close();
  });
});
