/**
 * `POST /api/player/answer` (DESIGN §14, docs/REALTIME.md "A pick over HTTP"): the pick a phone
 * sends over plain HTTP while its socket is down. Taken for the player the token proves, the same
 * engine path as a socket's pick (idempotent by answerId, refused after question_end), confirmed to
 * the player's sockets; bad input and bad credentials are refused and change nothing. Real server
 * on each database, a fake game clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, MAX_CLIENT_MESSAGE_BURST } from '../../../../protocol/index.js';
import { FakeClock } from '../../../game/rooms/fake-clock.js';
import { pointsForCorrectAnswer } from '../../../game/engine/index.js';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import type { TestServer } from '../../../testing/server.js';
import { type Game, createGame, display, player, startGameServer } from '../../ws/testing/setup.js';

describe.each(DIALECTS)('a pick over HTTP on %s', (dialect) => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  let server: TestServer;
  let api: TestApi;
  let phone: TestApi;
  let game: Game;
  let questionId: string;

  const answerOf = (index: number) => {
    const phase = server.server.realtime.rooms.get(game.sessionId)?.engineState?.phase;
    return phase && 'answers' in phase ? phase.answers.get(game.players[index].id) : undefined;
  };
  const pick = (fields: Record<string, unknown> = {}) => ({ type: 'submit_answer', questionId, selectedIndex: 1, ...fields });
  /** Player `index` sends `answer` over HTTP; `as` = whose token it presents. */
  const send = (index: number, answer: unknown, as = index) =>
    phone.post('/api/player/answer', { sessionId: game.sessionId, playerId: game.players[index].id, playerToken: game.players[as].playerToken, answer });

  beforeAll(async () => {
    ({ server, api } = await startGameServer(dialect, clock));
    phone = new TestApi(server);
    game = await createGame(server, api, { items: [{ question: { text: 'Who directed Jaws?', correctIndex: 1, timeLimitSeconds: 10 } }], players: 6 });
    questionId = game.questions[0].id;
    const phones = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => player(server, game, i)));
    const screen = await display(server, game);
    const shown = screen.next('session_state', (m) => m.phase === 'question');
    await api.post(`/api/admin/sessions/${game.sessionId}/start`, {});
    await shown;
    await Promise.all(phones.map((p) => p.close()));
    await screen.close();
    await clock.advance(4_000);
  });
  afterAll(() => server?.close());

  it('takes the pick (202, on a connection not kept open) and confirms it on the player’s socket; a resend is the same pick', async () => {
    const socket = await player(server, game, 0);
    const confirmed = socket.next('answer_accepted');
    const res = await send(0, pick({ answerId: 'http-1', reactionMs: 0 }));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ received: true });
    expect(res.headers.connection).toBe('close');
    expect(await confirmed).toMatchObject({ questionId, selectedIndex: 1, answerId: 'http-1' });
    // Timed from its arrival like any pick (the fake clock measures no delay, so reactionMs 0 gains nothing).
    expect(answerOf(0)).toMatchObject({ selectedIndex: 1, isCorrect: true, elapsedMs: 4_000, pointsEarned: pointsForCorrectAnswer(100, 10, 4_000) });
    // The same pick again, over HTTP and on the socket: taken as a resend, never a second answer.
    expect((await send(0, pick({ answerId: 'http-1', reactionMs: 0 }))).status).toBe(202);
    const again = socket.next('answer_accepted');
    socket.send(JSON.stringify(pick({ answerId: 'http-1', reactionMs: 0 })));
    expect(await again).toMatchObject({ answerId: 'http-1' });
    expect((await socket.expectError(JSON.stringify(pick({ answerId: 'http-2', selectedIndex: 2 })))).code).toBe(ERROR_CODES.duplicateAnswer);
    expect(answerOf(0)).toMatchObject({ selectedIndex: 1, answerId: 'http-1', elapsedMs: 4_000 });
    await socket.close();
  });

  it('refuses bad input and bad credentials with a clear message, and stores nothing', async () => {
    const base = { sessionId: game.sessionId, playerId: game.players[1].id, playerToken: game.players[1].playerToken, answer: pick() };
    const cases: [string, unknown, number][] = [
      ['choice out of range', { ...base, answer: pick({ selectedIndex: 7 }) }, 400],
      ['negative reaction', { ...base, answer: pick({ reactionMs: -5 }) }, 400],
      ['not a pick', { ...base, answer: { type: 'ping', id: 1 } }, 400],
      ['no answer', { ...base, answer: undefined }, 400],
      ['no token', { ...base, playerToken: undefined }, 400],
      ['NUL in the id', { ...base, playerId: 'a\0b' }, 400],
      ['a body far too large', { ...base, answer: pick({ questionId: 'q'.repeat(10_000) }) }, 413],
      ['another player’s token', { ...base, playerToken: game.players[2].playerToken }, 401],
      ['an unknown session', { ...base, sessionId: '00000000-0000-4000-8000-000000000000' }, 404],
      ['an unknown player', { ...base, playerId: '00000000-0000-4000-8000-000000000000' }, 404],
    ];
    for (const [what, body, status] of cases) {
      const res = await phone.post('/api/player/answer', body);
      expect(res.status, what).toBe(status);
      expect(res.body.message, what).toEqual(expect.any(String));
    }
    expect((await phone.request('POST', '/api/player/answer', 'not json', { 'content-type': 'application/json' })).status).toBe(400);
    expect(answerOf(1)).toBeUndefined();
    expect(answerOf(2)).toBeUndefined();
  });

  it('keeps a kicked player out', async () => {
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/players/${game.players[3].id}/kick`)).status).toBe(204);
    const res = await send(3, pick({ answerId: 'kicked-1' }));
    expect(res.status).toBe(403);
    expect(answerOf(3)).toBeUndefined();
  });

  it('limits a player to a person’s pace, as a socket does, and only the player can use that allowance up', async () => {
    // Player ids are public (leaderboards): requests under player 4's id with a wrong token are refused and cost that player nothing.
    for (let i = 0; i < MAX_CLIENT_MESSAGE_BURST + 5; i++) expect((await send(4, pick({ answerId: 'troll' }), 5)).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < MAX_CLIENT_MESSAGE_BURST + 5; i++) statuses.push((await send(4, pick({ answerId: 'burst-1' }))).status);
    expect(statuses.slice(0, MAX_CLIENT_MESSAGE_BURST)).toEqual(Array(MAX_CLIENT_MESSAGE_BURST).fill(202));
    expect(statuses.slice(MAX_CLIENT_MESSAGE_BURST)).toContain(429);
    expect(answerOf(4)).toMatchObject({ answerId: 'burst-1' });
  });

  it('accepts nothing after question_end', async () => {
    const screen = await display(server, game);
    const ended = screen.next('question_end');
    await clock.advance(6_500);
    await ended;
    // Still 202 (the request was handed over); the engine refuses it and stores nothing.
    expect((await send(5, pick({ answerId: 'late-1', reactionMs: 3_000 }))).status).toBe(202);
    await server.server.realtime.rooms.whenIdle();
    const stored = await server.server.deps.store.db.selectFrom('answers').select('player_id').where('player_id', '=', game.players[5].id).execute();
    expect(stored).toEqual([]);
    await screen.close();
  });
});
