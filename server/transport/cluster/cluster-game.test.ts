/**
 * A whole game on three instances in one process: the display, the admin and the phones each on
 * a different instance, the game run by exactly one of them, every score checked against what
 * was stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { TestApi } from '../../testing/api.js';
import { type AnyMessage, TestSocket } from '../ws/testing/client.js';
import { type Game, admin, createGame, display, player, questionsOpenedWithoutAnswer } from '../ws/testing/setup.js';
import { type TestCluster, startTestCluster, waitUntil } from './testing/cluster.js';

/** The next message of a type, waiting as long as a reveal and a "Get ready" take. */
const later = (s: TestSocket, type: string, match: (m: AnyMessage) => boolean = () => true) =>
  s.waitFor((m) => m.type === type && match(m), { from: s.messages.length, timeoutMs: 30_000 });
const board = (m: AnyMessage) => m.leaderboard.map((e: any) => `${e.player.name}:${e.score.pointsTotal}`);

describe('a game across three instances (PostgreSQL + Redis)', () => {
  let cluster: TestCluster;
  let game: Game;
  const apis: TestApi[] = [];

  beforeAll(async () => {
    cluster = await startTestCluster(3);
    for (const server of cluster.servers) {
      const api = new TestApi(server);
      await api.login();
      apis.push(api);
    }
    game = await createGame(cluster.servers[0], apis[0], {
      items: [{ question: { text: 'Who directed Jaws?', correctIndex: 1, points: 100, timeLimitSeconds: 8 } }, { question: { text: 'Year of Casablanca?', correctIndex: 2, points: 200, timeLimitSeconds: 8 } }],
      players: 4,
    });
  });
  afterAll(() => cluster?.close());

  it('plays with sockets on every instance; one owner; scores exact and stored', { timeout: 90_000 }, async () => {
    const [A, B, C] = cluster.servers;
    const d = await display(C, game);
    const a = await admin(A, game);
    const homes = [A, B, C, B];
    const p: TestSocket[] = [];
    for (let i = 0; i < 4; i++) p.push(await player(homes[i], game, i));
    expect(d.messages[0]).toMatchObject({ type: 'session_state', phase: 'waiting' });
    expect(p[2].messages[0]).toMatchObject({ view: 'player', playerScore: 0 });
    await waitUntil('one instance owns the session', () => cluster.ownersOf(game.sessionId).length === 1);

    // Started through B's REST API: the owner (wherever it is) runs it.
    const firstQuestion = p.map((s) => s.next('session_state', (m) => m.phase === 'question'));
    expect((await apis[1].post(`/api/admin/sessions/${game.sessionId}/start`, {})).status).toBe(200);
    await Promise.all(firstQuestion);

    const play = async (question: { id: string; correctIndex: number }, choices: number[]) => {
      const results = p.map((s) => s.next('answer_result', (m) => m.questionId === question.id));
      const ended = d.next('question_end', (m) => m.questionId === question.id);
      const boardUpdate = d.next('leaderboard_update');
      for (const [i, socket] of p.entries()) {
        const accepted = socket.next('answer_accepted');
        socket.send({ type: 'submit_answer', questionId: question.id, selectedIndex: choices[i] });
        await accepted;
      }
      // Everyone connected answered: the question ends early, results reach every phone.
      const got = await Promise.all(results);
      expect(await ended).toMatchObject({ correctIndex: question.correctIndex });
      return { got, board: await boardUpdate };
    };

    const [q1, q2] = game.questions;
    const round1 = await play(q1, [1, 1, 1, 0]);
    expect(round1.got.map((r) => r.isCorrect)).toEqual([true, true, true, false]);
    const round2Open = p.map((s) => later(s, 'session_state', (m) => m.phase === 'question' && m.question.id === q2.id));
    await Promise.all(round2Open);
    const round2 = await play(q2, [0, 2, 2, 2]);
    expect(round2.got.map((r) => r.isCorrect)).toEqual([false, true, true, true]);

    // Every point awarded is the formula applied to the stored answer time, and totals add up.
    const store = A.server.deps.store;
    const stored = await store.db
      .selectFrom('answers')
      .select(['player_id', 'question_id', 'is_correct', 'points_earned', 'elapsed_ms'])
      .where('session_id', '=', game.sessionId)
      .execute();
    expect(stored).toHaveLength(8);
    const limits = new Map([[q1.id, { points: 100, ms: 8_000 }], [q2.id, { points: 200, ms: 8_000 }]]);
    for (const row of stored) {
      const { points, ms } = limits.get(row.question_id)!;
      const expected = row.is_correct ? Math.round(points * (1 - row.elapsed_ms / (2 * ms))) : 0;
      expect(row.points_earned).toBe(expected);
    }
    const totals = new Map<string, number>();
    for (const [round, results] of [round1.got, round2.got].entries()) {
      for (const [i, result] of results.entries()) {
        const row = stored.find((r) => r.player_id === game.players[i].id && r.question_id === game.questions[round].id)!;
        expect(result.pointsEarned).toBe(row.points_earned);
        totals.set(game.players[i].id, (totals.get(game.players[i].id) ?? 0) + result.pointsEarned);
        expect(result.newScore).toBe(totals.get(game.players[i].id));
      }
    }
    const scores = await store.scores.listScores(game.sessionId);
    for (const [playerId, total] of totals) expect(scores.find((s) => s.playerId === playerId)?.pointsTotal ?? 0).toBe(total);
    const expectedBoard = [...totals.entries()]
      .filter(([, t]) => t > 0)
      .sort((x, y) => y[1] - x[1])
      .map(([id, t]) => `${game.players.find((pl) => pl.id === id)!.name}:${t}`);
    expect(board(round2.board).sort()).toEqual(expectedBoard.sort());

    // The owner serialized each broadcast once: phones on different instances got the same bytes.
    const endFrame = (s: TestSocket) => s.frames.find((f) => f.includes('"question_end"') && f.includes(q2.id));
    expect(endFrame(p[0])).toBeDefined();
    expect(endFrame(p[1])).toBe(endFrame(p[0]));
    expect(endFrame(p[2])).toBe(endFrame(p[0]));
    for (const s of [...p, d]) expect(questionsOpenedWithoutAnswer(s.frames)).toBe(2);

    // Stopped through C: every screen gets the final state; the admin on A saw the whole game.
    const finals = [d, a, ...p].map((s) => s.next('session_state', (m) => m.phase === 'finished'));
    expect((await apis[2].post(`/api/admin/sessions/${game.sessionId}/stop`, {})).status).toBe(200);
    await Promise.all(finals);
    expect(cluster.ownersOf(game.sessionId)).toHaveLength(1);
    const epochs = await sql<{ owner_epoch: number }>`select owner_epoch from sessions where id = ${game.sessionId}`.execute(store.db);
    expect(epochs.rows[0].owner_epoch).toBe(1);
    for (const s of [d, a, ...p]) s.close();
  });
});
