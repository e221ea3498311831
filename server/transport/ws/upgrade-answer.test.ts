/**
 * A pick carried by the socket's upgrade request (`answer`, DESIGN §14, docs/REALTIME.md): the
 * phone that found its socket silent opens a new one with its unconfirmed pick in the query, so
 * the server has it a round trip sooner. It is the same `submit_answer` message, through the same
 * parser and the same engine path: taken for the player the token proves, idempotent with socket
 * resends, refused after the question closed; bad input is answered with an error frame and the
 * socket stays open. Real sockets, a fake game clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, ERROR_CODES } from '../../../protocol/index.js';
import { FakeClock } from '../../game/rooms/fake-clock.js';
import { pointsForCorrectAnswer } from '../../game/engine/index.js';
import type { TestApi } from '../../testing/api.js';
import type { TestServer } from '../../testing/server.js';
import { MAX_UPGRADE_ANSWER_CHARS } from './socket-server.js';
import { TestSocket } from './testing/client.js';
import { type Game, createGame, display, player, startGameServer } from './testing/setup.js';

describe('a pick in the upgrade request', () => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  let server: TestServer;
  let api: TestApi;
  let game: Game;
  let questionId: string;

  const answers = () => server.server.realtime.rooms.get(game.sessionId)?.engineState?.phase;
  const answerOf = (index: number) => {
    const phase = answers();
    return phase && 'answers' in phase ? phase.answers.get(game.players[index].id) : undefined;
  };
  /** Player `index` connects with `answer` in the query; `as` = whose token it presents. */
  const withAnswer = (index: number, answer: string, as = index) =>
    TestSocket.open(server.baseUrl, {
      type: 'player',
      sessionId: game.sessionId,
      playerId: game.players[index].id,
      playerToken: game.players[as].playerToken,
      answer,
    });
  const pick = (fields: Record<string, unknown>) => JSON.stringify({ type: 'submit_answer', questionId, selectedIndex: 1, ...fields });

  beforeAll(async () => {
    ({ server, api } = await startGameServer('sqlite', clock));
    game = await createGame(server, api, { items: [{ question: { text: 'Who directed Jaws?', correctIndex: 1, timeLimitSeconds: 10 } }], players: 4 });
    questionId = game.questions[0].id;
    // Everyone was in the room when it started (a phone coming back is on the roster).
    const phones = await Promise.all([0, 1, 2, 3].map((i) => player(server, game, i)));
    const screen = await display(server, game);
    const shown = screen.next('session_state', (m) => m.phase === 'question');
    await api.post(`/api/admin/sessions/${game.sessionId}/start`, {});
    await shown;
    await Promise.all(phones.map((p) => p.close()));
    await clock.advance(4_000);
  });
  afterAll(() => server?.close());

  it('takes the pick as the socket’s first message: confirmed on that socket, timed from the request, idempotent with a resend', async () => {
    // reactionMs 0 claims an impossible tap: without a measured delay (the fake clock measures none) it gains nothing.
    const socket = await withAnswer(0, pick({ answerId: 'up-1', reactionMs: 0 }));
    const accepted = await socket.waitFor((m) => m.type === 'answer_accepted');
    expect(accepted).toMatchObject({ questionId, selectedIndex: 1, answerId: 'up-1' });
    expect(answerOf(0)).toMatchObject({ selectedIndex: 1, isCorrect: true, elapsedMs: 4_000, pointsEarned: pointsForCorrectAnswer(100, 10, 4_000) });
    // The same pick again on the socket (the phone resends on open): the same acceptance, never an error.
    const again = socket.next('answer_accepted');
    socket.send(pick({ answerId: 'up-1', reactionMs: 0 }));
    expect(await again).toMatchObject({ answerId: 'up-1' });
    // Another pick is still a second answer.
    expect((await socket.expectError(pick({ answerId: 'up-2', selectedIndex: 2 }))).code).toBe(ERROR_CODES.duplicateAnswer);
    expect(answerOf(0)).toMatchObject({ selectedIndex: 1, elapsedMs: 4_000 });
    await socket.close();
  });

  it('answers bad input in the parameter with an error frame, keeps the socket, and stores nothing', async () => {
    const cases: [string, string][] = [
      ['not json', ERROR_CODES.invalidJson],
      [pick({ selectedIndex: 7 }), ERROR_CODES.invalidMessage],
      [pick({ reactionMs: -5 }), ERROR_CODES.invalidMessage],
      [JSON.stringify({ type: 'ping', id: 1 }), ERROR_CODES.invalidMessage],
      [JSON.stringify({ type: 'admin_pause' }), ERROR_CODES.forbidden],
      [pick({ answerId: 'x'.repeat(MAX_UPGRADE_ANSWER_CHARS) }), ERROR_CODES.invalidMessage],
      [pick({ questionId: 'another-question' }), ERROR_CODES.wrongQuestion],
    ];
    for (const [answer, code] of cases) {
      const socket = await withAnswer(1, answer);
      const error = await socket.waitFor((m) => m.type === 'error');
      expect(error.code, answer.slice(0, 60)).toBe(code);
      expect(error.message).toEqual(expect.any(String));
      const state = await socket.waitFor((m) => m.type === 'session_state');
      expect(state).toMatchObject({ phase: 'question', answered: false });
      expect(socket.isOpen).toBe(true);
      await socket.close();
    }
    expect(answerOf(1)).toBeUndefined();
    // Screens may not answer, in the query either.
    const screen = await TestSocket.open(server.baseUrl, { type: 'display', sessionId: game.sessionId, answer: pick({}) });
    expect((await screen.waitFor((m) => m.type === 'error')).code).toBe(ERROR_CODES.forbidden);
    await screen.close();
  });

  it('answers only as the player the token proves', async () => {
    // Player 2's id with player 3's token: refused before anything is read.
    const impostor = await withAnswer(2, pick({ answerId: 'imp-1' }), 3);
    expect((await impostor.closed).code).toBe(CLOSE_CODES.unauthorized);
    // A player id inside the message changes nothing: the pick is the token holder's.
    const own = await withAnswer(3, pick({ answerId: 'own-1', playerId: game.players[2].id }));
    await own.waitFor((m) => m.type === 'answer_accepted');
    expect(answerOf(3)).toMatchObject({ answerId: 'own-1' });
    expect(answerOf(2)).toBeUndefined();
    await own.close();
  });

  it('refuses a pick that arrives after question_end', async () => {
    const screen = await display(server, game);
    // The phone's silent socket stays open meanwhile (TCP keeps it up through a loss of signal).
    const silent = await player(server, game, 2);
    const ended = screen.next('question_end');
    await clock.advance(6_500);
    await ended;
    const late = await withAnswer(2, pick({ answerId: 'late-1', reactionMs: 3_000 }));
    const refusal = await late.waitFor((m) => m.type === 'error');
    expect(refusal).toMatchObject({ code: ERROR_CODES.lateAnswer, questionId, answerId: 'late-1' });
    expect(late.messages.some((m) => m.type === 'answer_accepted')).toBe(false);
    const phase = answers();
    expect(phase?.kind).toBe('reveal');
    expect(phase && 'answers' in phase ? phase.answers.get(game.players[2].id) : undefined).toBeUndefined();
    await late.close();
    await silent.close();
    await screen.close();
  });
});
