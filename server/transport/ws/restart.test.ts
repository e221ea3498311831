/**
 * A server restart in the middle of a question: the first server goes down without stopping the
 * session, a new one starts on the same database, clients reconnect, and the question carries
 * on with its remaining time; answers given before the restart stay and lock their players, and
 * the players connected before the restart are waited for (DESIGN §8). (crash.test.ts kills a
 * real server process; these run in-process on the fake clock.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, ERROR_CODES } from '../../../protocol/index.js';
import { FakeClock } from '../../game/rooms/fake-clock.js';
import { DIALECTS } from '../../testing/databases.js';
import type { TestServer } from '../../testing/server.js';
import type { TestSocket } from './testing/client.js';
import { createGame, display, player, questionsOpenedWithoutAnswer, startGameServer } from './testing/setup.js';

describe.each(DIALECTS)('restarting the server mid-question on %s', (dialect) => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  const servers: TestServer[] = [];
  afterAll(async () => {
    // The second server borrowed the first one's database; the first one drops it last.
    for (const s of servers.reverse()) await s.close().catch(() => undefined);
  });

  /** A first server with three phones connected to an open question. */
  async function questionOpenForThree(question: { text: string; correctIndex: number; timeLimitSeconds?: number }) {
    const first = await startGameServer(dialect, clock);
    servers.push(first.server);
    const game = await createGame(first.server, first.api, { items: [{ question }, { slide: 'intro' }], players: 3 });
    const sockets: TestSocket[] = [];
    for (let i = 0; i < 3; i++) sockets.push(await player(first.server, game, i));
    await first.api.post(`/api/admin/sessions/${game.sessionId}/start`);
    await sockets[0].waitFor((m) => m.type === 'session_state' && m.phase === 'question');
    await first.server.server.realtime.rooms.whenIdle();
    return { first, game, q1: game.questions[0], sockets };
  }

  it('continues the question with its remaining time, nothing lost, answered players locked', async () => {
    const { first, game, q1, sockets } = await questionOpenForThree({ text: 'Who shot first?', correctIndex: 0 });
    const startedAt = clock.now();

    for (const [i, delayMs] of [[0, 2_000], [1, 1_000]] as const) {
      await clock.advance(delayMs);
      const accepted = sockets[i].next('answer_accepted');
      sockets[i].send({ type: 'submit_answer', questionId: q1.id, selectedIndex: 0 });
      await accepted;
    }

    // Down: close the running server (not the session); every client is told to go away.
    const closed = Promise.all(sockets.map((s) => s.closed));
    await first.server.server.close();
    expect((await closed).map((c) => c.code)).toEqual([CLOSE_CODES.goingAway, CLOSE_CODES.goingAway, CLOSE_CODES.goingAway]);
    await clock.advance(2_000); // the restart takes 2 s of game time

    // Up: a new server on the same data resumes the live session by itself.
    const second = await startGameServer(dialect, clock, { database: first.server.database });
    servers.push(second.server);
    const again = [await player(second.server, game, 0), await player(second.server, game, 2)];
    const screen = await display(second.server, game);
    const endsAt = startedAt + 10_000;
    expect(again[0].messages[0]).toMatchObject({
      phase: 'question',
      question: { id: q1.id },
      endsAt,
      serverTime: startedAt + 5_000,
      timeRemaining: 5,
      answered: true,
      selectedIndex: 0,
    });
    expect(again[1].messages[0]).toMatchObject({ phase: 'question', endsAt, answered: false, selectedIndex: null });
    expect(screen.messages[0]).toMatchObject({ phase: 'question', endsAt, timeRemaining: 5 });
    expect((await again[0].expectError({ type: 'submit_answer', questionId: q1.id, selectedIndex: 1 })).code).toBe(
      ERROR_CODES.duplicateAnswer,
    );

    // The countdown goes on from where it was.
    const tick = screen.next('timer_tick');
    await clock.advance(1_000);
    expect(await tick).toMatchObject({ questionId: q1.id, timeRemaining: 4, endsAt });

    // Player 2 (answered before the restart) is not back yet; when player 3 answers, every
    // connected player has answered and the question closes with all three answers scored.
    const ended = screen.next('question_end');
    const result = again[1].next('answer_result');
    again[1].send({ type: 'submit_answer', questionId: q1.id, selectedIndex: 0 });
    expect(await ended).toEqual({ type: 'question_end', questionId: q1.id, correctIndex: 0, distribution: [3, 0, 0, 0] });
    expect(await result).toMatchObject({ isCorrect: true, pointsEarned: 70, newScore: 70 });
    expect(await again[0].waitFor((m) => m.type === 'answer_result')).toMatchObject({ pointsEarned: 90, newScore: 90 });
    const board = await screen.waitFor((m) => m.type === 'leaderboard_update');
    expect(board.leaderboard.map((e: any) => `${e.player.name}:${e.score.pointsTotal}`)).toEqual([
      'Player 1:90',
      'Player 2:85',
      'Player 3:70',
    ]);
    await second.server.server.realtime.rooms.whenIdle();
    const { store } = second.server.server.deps;
    expect((await store.scores.answersForAsking(game.sessionId, 1)).length).toBe(3);
    expect((await store.scores.listScores(game.sessionId)).map((s) => s.pointsTotal)).toEqual([90, 85, 70]);
    for (const socket of [...again, screen]) expect(questionsOpenedWithoutAnswer(socket.frames)).toBe(1);
    await Promise.all([...again, screen].map((s) => s.close()));
  });

  it('after a restart, waits up to 10 s for the players who were connected before ending a question early', async () => {
    const { first, game, q1, sockets } = await questionOpenForThree({ text: 'Who ate the popcorn?', correctIndex: 1, timeLimitSeconds: 60 });
    const accepted = sockets[0].next('answer_accepted');
    sockets[0].send({ type: 'submit_answer', questionId: q1.id, selectedIndex: 1 });
    await accepted;
    await first.server.server.close(); // a deploy: the roster (all three phones) is stored

    const second = await startGameServer(dialect, clock, { database: first.server.database });
    servers.push(second.server);
    const resumedAt = clock.now();
    // Two of the three phones are back, both answered: the third still counts for 10 s.
    const back = [await player(second.server, game, 0), await player(second.server, game, 1)];
    const ended = back[0].next('question_end');
    back[1].send({ type: 'submit_answer', questionId: q1.id, selectedIndex: 1 });
    await back[1].waitFor((m) => m.type === 'answer_accepted');
    await second.server.server.realtime.rooms.whenIdle();
    await clock.advance(9_000);
    expect(back[0].types()).not.toContain('question_end');
    await clock.advance(1_000);
    expect(await ended).toMatchObject({ questionId: q1.id });
    expect(clock.now()).toBe(resumedAt + 10_000);
    const room = second.server.server.realtime.rooms.get(game.sessionId)!;
    expect(room.engineState?.phase).toMatchObject({ kind: 'reveal', startedAtMs: resumedAt + 10_000 });
    await Promise.all(back.map((s) => s.close()));
  });

  it("counts the phones coming back after it as reconnects on the operator's Live now (DESIGN §18)", async () => {
    const { first, game } = await questionOpenForThree({ text: 'Which seat is the best?', correctIndex: 2, timeLimitSeconds: 60 });
    await first.server.server.close();

    const second = await startGameServer(dialect, clock, { database: first.server.database });
    servers.push(second.server);
    // Two of the phones connected before the restart are back: seen earlier in this game.
    const back = [await player(second.server, game, 0), await player(second.server, game, 2)];
    await second.server.server.realtime.rooms.whenIdle();
    const live = (await second.api.get('/api/admin/live')).body as { sessionId: string; phones: number; reconnectsLastMinute: number }[];
    expect(live.find((g) => g.sessionId === game.sessionId)).toMatchObject({ phones: 2, reconnectsLastMinute: 2 });
    await Promise.all(back.map((s) => s.close()));
  });
});
