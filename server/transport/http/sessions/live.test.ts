/**
 * GET /api/admin/live (DESIGN §18): every live game with its figures, from the rooms' own state,
 * on both databases. Sockets are real; the game clock is fake.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../../protocol/index.js';
import { FakeClock } from '../../../game/rooms/fake-clock.js';
import type { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import type { TestServer } from '../../../testing/server.js';
import type { TestSocket } from '../../ws/testing/client.js';
import { type Game, admin, createGame, display, player, startGameServer } from '../../ws/testing/setup.js';

describe.each(DIALECTS)('GET /api/admin/live on %s', (dialect) => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  let server: TestServer;
  let api: TestApi;
  let games: Game[];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    ({ server, api } = await startGameServer(dialect, clock));
    const hall = await api.post('/api/admin/auditoriums', { name: 'Screen 1' });
    expect(hall.status).toBe(201);
    games = [];
    for (let g = 0; g < 3; g++) {
      games.push(await createGame(server, api, { items: [{ question: { text: `Q${g}?`, correctIndex: 1 } }, { slide: 'rules' }, { question: { text: `R${g}?`, correctIndex: 0 } }], players: 4 }));
    }
    // Titles tell them apart; the first plays in an auditorium.
    for (const [g, game] of games.entries()) {
      expect((await api.put(`/api/admin/sessions/${game.sessionId}`, { title: `Show ${g + 1}`, ...(g === 0 ? { auditoriumId: hall.body.id } : {}) })).status).toBe(200);
    }
  });
  afterAll(async () => {
    for (const s of sockets) await s.close().catch(() => undefined);
    await server?.close();
  });

  it('needs an administrator', async () => {
    const res = await fetch(`${server.baseUrl}/api/admin/live`);
    expect(res.status).toBe(401);
  });

  it('is empty while nothing is live, then lists each live game with its item, phones, displays, answers and health', async () => {
    expect((await api.get('/api/admin/live')).body).toEqual([]);
    const [one, two] = games;
    // Show 1: a display and three phones; Show 2: phones only; Show 3 stays a draft.
    sockets.push(await display(server, one));
    const phones = [];
    for (let i = 0; i < 3; i++) phones.push(await player(server, one, i));
    sockets.push(...phones, await player(server, two, 0));
    for (const game of [one, two]) expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`)).status).toBe(200);
    await server.server.realtime.rooms.whenIdle();
    const accepted = phones[0].next('answer_accepted');
    phones[0].send({ type: 'submit_answer', questionId: one.questions[0].id, selectedIndex: 1 });
    await accepted;

    const live = (await api.get('/api/admin/live')).body as LiveGame[];
    expect(live).toEqual([
      {
        sessionId: one.sessionId, title: 'Show 1', auditorium: 'Screen 1', status: 'live', item: 'question', questionNumber: 1, questions: 2,
        phones: 3, displays: 1, answered: 1, reconnectsLastMinute: 0, health: 'ok',
      },
      {
        sessionId: two.sessionId, title: 'Show 2', auditorium: null, status: 'live', item: 'question', questionNumber: 1, questions: 2,
        phones: 1, displays: 0, answered: 0, reconnectsLastMinute: 0, health: 'warn', // no screen up
      },
    ]);
  });

  it('counts players coming back in the last minute and warns when many do', async () => {
    const [one] = games;
    for (let round = 0; round < 3; round++) {
      const again = await player(server, one, 3); // a fourth phone, then three returns of it
      await again.close();
    }
    sockets.push(await player(server, one, 3));
    await server.server.realtime.rooms.whenIdle();
    const first = ((await api.get('/api/admin/live')).body as LiveGame[])[0];
    expect(first).toMatchObject({ title: 'Show 1', phones: 4, reconnectsLastMinute: 3, health: 'warn' });
    await clock.advance(61_000);
    const later = ((await api.get('/api/admin/live')).body as LiveGame[])[0];
    expect(later).toMatchObject({ reconnectsLastMinute: 0, health: 'ok' });
  });

  it('follows a game from its question to the slide after it and to the next question', async () => {
    const game = await createGame(server, api, { items: [{ question: { text: 'S1?', correctIndex: 0 } }, { slide: 'rules' }, { question: { text: 'S2?', correctIndex: 0 } }], players: 1 });
    const onIt = async () => ((await api.get('/api/admin/live')).body as LiveGame[]).find((g) => g.sessionId === game.sessionId)!;
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`)).status).toBe(200);
    await server.server.realtime.rooms.whenIdle();
    expect(await onIt()).toMatchObject({ item: 'question', questionNumber: 1, questions: 2 });
    // The question's 10 s and its reveal pass, a second at a time: the slide comes, the last question asked stays named.
    for (let s = 0; s < 30 && (await onIt()).item !== 'slide'; s++) {
      await clock.advance(1_000);
      await server.server.realtime.rooms.whenIdle();
    }
    expect(await onIt()).toMatchObject({ item: 'slide', questionNumber: 1, answered: 0 });
    // Next: the second question.
    const host = await admin(server, game);
    sockets.push(host);
    host.send({ type: 'admin_next_question' });
    await host.waitFor((m) => m.type === 'session_state' && m.phase === 'question');
    expect(await onIt()).toMatchObject({ item: 'question', questionNumber: 2, answered: 0 });
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/stop`)).status).toBe(200);
  });

  it('shows a live game no room is running as down', async () => {
    const [, , three] = games;
    // Made live behind the rooms' back (as when its instance died in multi-instance mode).
    await server.server.deps.store.sessions.transition(three.sessionId, ['draft'], 'live');
    const live = (await api.get('/api/admin/live')).body as LiveGame[];
    // Its questions are still its own (read from the database: no room has its program).
    expect(live.find((g) => g.sessionId === three.sessionId)).toMatchObject({ title: 'Show 3', item: 'idle', questions: 2, phones: 0, health: 'down' });
  });
});
