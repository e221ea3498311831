/**
 * A whole game over real sockets against the real server, on a fake game clock: three
 * questions, a slide and a media block; one display, one admin, five players.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, ERROR_CODES } from '../../../protocol/index.js';
import { FakeClock } from '../../game/rooms/fake-clock.js';
import type { TestApi } from '../../testing/api.js';
import { DIALECTS } from '../../testing/databases.js';
import type { TestServer } from '../../testing/server.js';
import { type AnyMessage, TestSocket } from './testing/client.js';
import { type Game, admin, collapseTicks, createGame, display, player, questionsOpenedWithoutAnswer, startGameServer } from './testing/setup.js';

const nextState = (socket: TestSocket, phase: string) => socket.next('session_state', (m) => m.phase === phase);
const board = (m: AnyMessage) => m.leaderboard.map((e: any) => `${e.player.name}:${e.score.pointsTotal}`);

describe.each(DIALECTS)('a full game over /ws on %s', (dialect) => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  let server: TestServer;
  let api: TestApi;
  let game: Game;

  beforeAll(async () => {
    ({ server, api } = await startGameServer(dialect, clock));
    game = await createGame(server, api, {
      items: [
        { question: { text: 'Who directed Jaws?', correctIndex: 1 } },
        { slide: 'rules' },
        { question: { text: 'Year of Casablanca?', correctIndex: 2 } },
        { mediaBlock: 2 },
        { question: { text: 'Longest film?', correctIndex: 3 } },
      ],
      players: 5,
      media: [3, 4],
      mediaItemsPerTransition: 1,
    });
  });
  afterAll(() => server?.close());

  it('plays every item in order, scores by speed, and obeys the admin', async () => {
    const [q1, q2, q3] = game.questions;
    const d = await display(server, game);
    const a = await admin(server, game);
    const p: TestSocket[] = [];
    for (let i = 0; i < 5; i++) p.push(await player(server, game, i));
    const settle = () => server.server.realtime.rooms.whenIdle();
    const phaseNow = () => server.server.realtime.rooms.get(game.sessionId)?.engineState?.phase.kind;
    const answer = async (i: number, questionId: string, selectedIndex: number) => {
      const accepted = p[i].next('answer_accepted');
      p[i].send({ type: 'submit_answer', questionId, selectedIndex });
      await accepted;
    };

    // Before the start everyone waits, with the session's media to rotate.
    expect(d.messages[0]).toMatchObject({ type: 'session_state', phase: 'waiting', question: null, mediaItemCount: 1 });
    expect(d.messages[0].media.map((m: any) => m.duration)).toEqual([3, 4]);
    expect(p[0].messages[0]).toMatchObject({ view: 'player', playerScore: 0, answered: false });
    expect(a.messages[0]).toMatchObject({ view: 'admin', session: { status: 'draft', totalQuestions: 3, currentQuestionIndex: null } });

    // Start: question 1 reaches every screen; the answer only reaches the admin.
    const started = d.next('session_state', (m) => m.phase === 'question');
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`)).status).toBe(200);
    const first = await started;
    await settle();
    const t0 = clock.now();
    expect(first).toMatchObject({ question: { id: q1.id, text: 'Who directed Jaws?' }, endsAt: t0 + 10_000, timeRemaining: 10, questionNumber: 1, totalQuestions: 3 });
    expect(d.messages[0]).not.toHaveProperty('questionNumber');
    expect(first.question).not.toHaveProperty('correctIndex');
    expect(await p[4].waitFor((m) => m.type === 'session_state' && m.phase === 'question')).toMatchObject({ question: { id: q1.id } });
    expect(await a.waitFor((m) => m.type === 'session_state' && m.phase === 'question')).toMatchObject({
      question: { correctIndex: 1 },
      session: { status: 'live', currentQuestionIndex: 0, totalQuestions: 3 },
    });

    // Question 1: everyone answers, one second apart; the last answer ends it early.
    const choices = [1, 1, 0, 1, 2];
    const ended = d.next('question_end');
    for (let i = 0; i < 5; i++) {
      await clock.advance(1_000);
      await answer(i, q1.id, choices[i]);
    }
    expect(await ended).toEqual({ type: 'question_end', questionId: q1.id, correctIndex: 1, distribution: [1, 3, 1, 0] });
    const firstBoard = await d.waitFor((m) => m.type === 'leaderboard_update');
    expect(board(firstBoard)).toEqual(['Player 1:95', 'Player 2:90', 'Player 4:80', 'Player 3:0', 'Player 5:0']);
    expect(await p[0].waitFor((m) => m.type === 'answer_result')).toEqual({
      type: 'answer_result',
      playerId: game.players[0].id,
      questionId: q1.id,
      isCorrect: true,
      pointsEarned: 95,
      newScore: 95,
      rank: 1,
      players: 5,
      pointsToNextPlace: null,
    });
    // Two wrong answers share fourth place, 80 points behind the third.
    expect(await p[2].waitFor((m) => m.type === 'answer_result')).toMatchObject({ isCorrect: false, pointsEarned: 0, newScore: 0, rank: 4, players: 5, pointsToNextPlace: 80 });
    await p[0].waitFor((m) => m.type === 'leaderboard_update');
    expect(collapseTicks(p[0].types())).toEqual([
      'state:waiting', 'state:question', 'timer_tick', 'answer_accepted', 'timer_tick×4', 'answer_result', 'question_end', 'leaderboard_update',
    ]);

    // Reveal 5 s, then the transition media (3 s), then the rules slide.
    const between = nextState(d, 'between');
    await clock.advance(5_000);
    expect(await between).toMatchObject({ question: null, mediaItemCount: 1, endsAt: t0 + 13_000 });
    const slide = nextState(d, 'slide');
    const adminSlide = nextState(a, 'slide');
    await clock.advance(3_000);
    expect(await slide).toMatchObject({ slide: { slideType: 'rules' }, endsAt: t0 + 23_000 });
    // The admin's copy of the step may land after the display's: the pause below answers that state.
    await adminSlide;

    // Pause during the slide: the slide finishes, then the game holds; the session row follows.
    // (The admin's own slide state first: it may reach the test a moment after the display's.)
    await a.waitFor((m) => m.type === 'session_state' && m.phase === 'slide');
    const paused = a.next('session_state');
    a.send({ type: 'admin_pause' });
    expect(await paused).toMatchObject({ phase: 'slide', session: { autoRotate: false } });
    await settle();
    expect((await api.get(`/api/admin/sessions/${game.sessionId}`)).body.autoRotate).toBe(false);
    const hold = nextState(d, 'hold');
    await clock.advance(10_000);
    await hold;
    const held = d.messages.length;
    await clock.advance(30_000); // nothing moves while held (the final sequence check shows it)
    expect(phaseNow()).toBe('hold');

    // Resume from the hold starts question 2 at once.
    const resumed = d.next('session_state', (m) => m.phase === 'question');
    a.send({ type: 'admin_toggle_autorotate', autoRotate: true });
    expect((await resumed).question.id).toBe(q2.id);
    await settle();
    expect((await api.get(`/api/admin/sessions/${game.sessionId}`)).body.autoRotate).toBe(true);

    // Bad input during question 2: an error back each time, nothing changes, the socket stays.
    expect((await p[0].expectError('not json')).code).toBe(ERROR_CODES.invalidJson);
    expect((await p[0].expectError({ type: 'dance' })).code).toBe(ERROR_CODES.unknownType);
    expect((await p[0].expectError({ type: 'admin_next_question' })).code).toBe(ERROR_CODES.forbidden);
    expect((await d.expectError({ type: 'submit_answer', questionId: q2.id, selectedIndex: 2 })).code).toBe(ERROR_CODES.forbidden);
    expect((await p[0].expectError({ type: 'submit_answer', questionId: q1.id, selectedIndex: 1 })).code).toBe(ERROR_CODES.wrongQuestion);
    expect((await p[0].expectError({ type: 'submit_answer', questionId: q2.id, selectedIndex: 4 })).code).toBe(ERROR_CODES.invalidMessage);
    await answer(0, q2.id, 2);
    expect((await p[0].expectError({ type: 'submit_answer', questionId: q2.id, selectedIndex: 1 })).code).toBe(ERROR_CODES.duplicateAnswer);
    await clock.advance(2_000);
    await answer(1, q2.id, 2);
    await clock.advance(1_000);
    await answer(2, q2.id, 2);
    await answer(3, q2.id, 0);
    // Player 5 does not answer: question 2 runs its full 10 s.
    const q2Ended = d.next('question_end');
    await clock.advance(6_999);
    expect(phaseNow()).toBe('question');
    await clock.advance(1);
    expect(await q2Ended).toMatchObject({ questionId: q2.id, correctIndex: 2 });
    expect((await p[4].expectError({ type: 'submit_answer', questionId: q2.id, selectedIndex: 2 })).code).toBe(ERROR_CODES.lateAnswer);
    expect(p.every((s) => s.isOpen) && d.isOpen).toBe(true);
    const secondBoard = await d.waitFor((m) => m.type === 'leaderboard_update', { from: held });
    expect(board(secondBoard)).toEqual(['Player 1:195', 'Player 2:180', 'Player 3:85', 'Player 4:80', 'Player 5:0']);
    expect(p[4].messages.filter((m) => m.type === 'answer_result')).toHaveLength(1); // only for question 1

    // Reveal, transition, then the media block of 2 items (3 s + 4 s), then question 3.
    const media = nextState(d, 'media');
    await clock.advance(8_000);
    const block = await media;
    expect(block).toMatchObject({ question: null, mediaItemCount: 2 });
    expect(block.endsAt - block.serverTime).toBe(7_000);
    const third = nextState(d, 'question');
    await clock.advance(7_000);
    expect((await third).question.id).toBe(q3.id);

    // Next during question 3: it is scored normally, then the game loops to item 0.
    await clock.advance(1_000);
    await answer(1, q3.id, 3);
    const looped = d.next('session_state', (m) => m.phase === 'question');
    a.send({ type: 'admin_next_question' });
    expect((await looped).question.id).toBe(q1.id);
    expect(await p[1].waitFor((m) => m.type === 'answer_result' && m.questionId === q3.id)).toMatchObject({ pointsEarned: 95, newScore: 275 });
    const finalBoard = d.messages.filter((m) => m.type === 'leaderboard_update').at(-1)!;
    expect(board(finalBoard)).toEqual(['Player 2:275', 'Player 1:195', 'Player 3:85', 'Player 4:80', 'Player 5:0']);

    // Stop: the final state reaches everyone, and the stored totals match what was shown.
    const finished = d.next('session_state', (m) => m.phase === 'finished');
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/stop`)).status).toBe(200);
    expect(await finished).toMatchObject({ status: 'finished', question: null });
    const stored = await server.server.deps.store.scores.listScores(game.sessionId);
    expect(stored.map((s) => `${s.name}:${s.pointsTotal}`)).toEqual(['Player 2:275', 'Player 1:195', 'Player 3:85', 'Player 4:80', 'Player 5:0']);

    // The display counted answers in (its own messages, checked here; phones never get them).
    const firstEnd = d.messages.findIndex((m) => m.type === 'question_end');
    const counts = d.messages.slice(0, firstEnd).filter((m) => m.type === 'answer_progress');
    expect(counts[0]).toEqual({ type: 'answer_progress', questionId: q1.id, answered: 0, players: 5 });
    expect(counts.at(-1)).toEqual({ type: 'answer_progress', questionId: q1.id, answered: 5, players: 5 });
    expect(counts.map((m) => m.answered)).toEqual([...counts.map((m) => m.answered)].sort((x, y) => x - y));
    for (const phone of p) expect(phone.types()).not.toContain('answer_progress');
    for (const phone of p) expect(phone.types()).not.toContain('presence');
    // Admins get the same counts, and who is in the room: here the five phones and the display.
    const adminFirstEnd = a.messages.findIndex((m) => m.type === 'question_end');
    expect(a.messages.slice(0, adminFirstEnd).filter((m) => m.type === 'answer_progress').at(-1)).toMatchObject({ questionId: q1.id, answered: 5, players: 5 });
    expect(a.messages.filter((m) => m.type === 'presence').at(-1)).toMatchObject({ type: 'presence', players: 5, displays: 1, joined: 5 });
    // The display hears it too, for its lobby: the latest names first (DESIGN §17).
    expect(d.messages.filter((m) => m.type === 'presence').at(-1)).toMatchObject({ players: 5, joined: 5, recentNames: ['Player 5', 'Player 4', 'Player 3', 'Player 2', 'Player 1'] });

    // Every message arrived in order on the display.
    expect(collapseTicks(d.types().filter((t) => t !== 'answer_progress' && t !== 'presence'))).toEqual([
      'state:waiting',
      'state:question', 'timer_tick×5', 'question_end', 'leaderboard_update', 'state:between', 'state:slide', 'state:hold',
      'state:question', 'error', 'timer_tick×9', 'question_end', 'leaderboard_update', 'state:between', 'state:media',
      'state:question', 'timer_tick', 'question_end', 'leaderboard_update', 'state:question', 'state:finished',
    ]);
    // No frame to a player or the display named the answer while its question was open.
    for (const socket of [d, ...p]) expect(questionsOpenedWithoutAnswer(socket.frames)).toBe(4);
    await Promise.all([d, a, ...p].map((s) => s.close()));
  });

  it('skips an item removed while a question runs, and a restarted session begins afresh', async () => {
    const other = await createGame(server, api, {
      items: [{ question: { text: 'First?', correctIndex: 0 } }, { slide: 'break' }, { question: { text: 'Second?', correctIndex: 0 } }],
      players: 1,
    });
    const [q1, q2] = other.questions;
    const d = await display(server, other);
    const p1 = await player(server, other, 0);
    const opened = nextState(d, 'question');
    await api.post(`/api/admin/sessions/${other.sessionId}/start`);
    await opened;
    await server.server.realtime.rooms.whenIdle();

    // The operator removes the break slide while question 1 is open: the question is untouched.
    const items = (await api.get(`/api/admin/sessions/${other.sessionId}/items`)).body as { id: string; itemType: string }[];
    const slideItem = items.find((i) => i.itemType === 'slide')!;
    expect((await api.delete(`/api/admin/sessions/${other.sessionId}/items/${slideItem.id}`)).status).toBeLessThan(300);
    await server.server.realtime.rooms.whenIdle();
    const result = p1.next('answer_result');
    p1.send({ type: 'submit_answer', questionId: q1.id, selectedIndex: 0 });
    expect(await result).toMatchObject({ questionId: q1.id, pointsEarned: 100, newScore: 100 });
    const second = nextState(d, 'question');
    await clock.advance(10_000); // reveal 5 s + "Get Ready!" 5 s; no slide any more
    expect((await second).question.id).toBe(q2.id);

    const finished = nextState(d, 'finished');
    await api.post(`/api/admin/sessions/${other.sessionId}/stop`);
    await finished;
    const again = nextState(d, 'question');
    expect((await api.post(`/api/admin/sessions/${other.sessionId}/restart`)).status).toBe(200);
    const restarted = await again;
    expect(restarted).toMatchObject({ question: { id: q1.id }, leaderboard: [] });
    // Asking numbers start again at 1 (the restart deleted the old answers), and scoring is fresh.
    await server.server.realtime.rooms.whenIdle();
    const fresh = p1.next('answer_result');
    p1.send({ type: 'submit_answer', questionId: q1.id, selectedIndex: 0 });
    expect(await fresh).toMatchObject({ pointsEarned: 100, newScore: 100 });
    await server.server.realtime.rooms.whenIdle();
    expect(await server.server.deps.store.scores.answersForAsking(other.sessionId, 1)).toHaveLength(1);
    await Promise.all([d.close(), p1.close()]);
  });

  it('closes sockets that fail authentication with 4401/4404 and a reason', async () => {
    const { baseUrl } = server;
    const sessionId = game.sessionId;
    const [p1, p2] = game.players;
    const refusals: [Record<string, string>, number, string][] = [
      [{ type: 'display', sessionId: 'no-such-session' }, CLOSE_CODES.notFound, 'Session not found'],
      [{ type: 'admin', sessionId }, CLOSE_CODES.unauthorized, 'Admin token missing, invalid or expired'],
      [{ type: 'admin', sessionId, token: 'forged' }, CLOSE_CODES.unauthorized, 'Admin token missing, invalid or expired'],
      [{ type: 'player', sessionId, playerId: p1.id }, CLOSE_CODES.unauthorized, 'playerId and playerToken are required'],
      [{ type: 'player', sessionId, playerId: p1.id, playerToken: p2.playerToken }, CLOSE_CODES.unauthorized, 'Invalid player token'],
      [{ type: 'player', sessionId, playerId: 'nobody', playerToken: p1.playerToken }, CLOSE_CODES.notFound, 'Player not found'],
      [{ type: 'player', sessionId: 'no-such-session', playerId: p1.id, playerToken: p1.playerToken }, CLOSE_CODES.notFound, 'Session not found'],
      [{ type: 'spectator', sessionId }, CLOSE_CODES.badRequest, 'type must be admin, display or player'],
      [{ type: 'display' }, CLOSE_CODES.badRequest, 'Invalid connection query: sessionId Invalid input: expected string, received undefined'],
      // A NUL in an id closed with 1011 on PostgreSQL (its text type refuses NUL); found by the fuzz.
      [{ type: 'display', sessionId: `${sessionId}\0` }, CLOSE_CODES.notFound, 'Session not found'],
      [{ type: 'player', sessionId, playerId: '\0', playerToken: p1.playerToken }, CLOSE_CODES.unauthorized, 'Invalid player token'],
      // A phone's session is read only once its token failed: a missing session is still named first.
      [{ type: 'player', sessionId: 'no-such-session', playerId: '\0', playerToken: p1.playerToken }, CLOSE_CODES.notFound, 'Session not found'],
      [{ type: 'player', sessionId: 'no-such-session', playerId: 'nobody', playerToken: p1.playerToken }, CLOSE_CODES.notFound, 'Session not found'],
    ];
    for (const [query, code, reason] of refusals) {
      const socket = await TestSocket.open(baseUrl, query);
      expect(await socket.closed, JSON.stringify(query)).toEqual({ code, reason });
      expect(socket.messages).toEqual([]);
    }
  });

  it('refuses frames over 16 KB with close code 1009', async () => {
    const socket = await display(server, game);
    socket.send(JSON.stringify({ type: 'submit_answer', questionId: 'x'.repeat(17 * 1024), selectedIndex: 1 }));
    expect((await socket.closed).code).toBe(CLOSE_CODES.messageTooBig);
  });
});
