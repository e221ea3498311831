/**
 * "Show on display" between questions only (DESIGN §17): during an open question the show is
 * answered 202 { queued: true } and the winners reach the displays after the question closes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../game/rooms/fake-clock.js';
import { TestApi } from '../../testing/api.js';
import { DIALECTS } from '../../testing/databases.js';
import type { TestServer } from '../../testing/server.js';
import { TestSocket } from '../../transport/ws/testing/client.js';
import { createGame, display, player, startGameServer, type Game } from '../../transport/ws/testing/setup.js';

const PRIZE_DRAW = { enabled: true, prize: 'A year of popcorn', consentText: 'Enter me in the draw.' };

describe.each(DIALECTS)('winners between questions on %s', (dialect) => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  let server: TestServer;
  let api: TestApi;
  let game: Game;
  let ana: { id: string; playerToken: string };

  beforeAll(async () => {
    ({ server, api } = await startGameServer(dialect, clock));
    game = await createGame(server, api, {
      items: [{ question: { text: 'Who directed Jaws?', correctIndex: 1 } }, { question: { text: 'Year of Casablanca?', correctIndex: 2 } }],
      // Player 1 stays connected without answering, so the question stays open after Ana's answer.
      players: 1,
    });
    expect((await api.put(`/api/admin/sessions/${game.sessionId}`, { prizeDraw: PRIZE_DRAW })).status).toBe(200);
    const registered = await new TestApi(server).post('/api/player/register', { sessionId: game.sessionId, name: 'Ana', email: 'ana@example.com', prizeConsent: true });
    expect(registered.status).toBe(201);
    ana = registered.body;
  });
  afterAll(() => server?.close());

  it('holds the winners while a question is open and shows them when it closes', async () => {
    const screen = await display(server, game);
    const waiting = await player(server, game, 0);
    const phone = await TestSocket.join(server.baseUrl, { type: 'player', sessionId: game.sessionId, playerId: ana.id, playerToken: ana.playerToken });
    try {
      const questionOpen = screen.next('session_state', (m) => m.phase === 'question');
      expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`)).status).toBe(200);
      await questionOpen;
      // Draws pick among players who answered a question of the session (DESIGN §15).
      const accepted = phone.next('answer_accepted');
      phone.send({ type: 'submit_answer', questionId: game.questions[0].id, selectedIndex: 1 });
      await accepted;
      await server.server.realtime.rooms.whenIdle();
      const drawn = await api.post(`/api/admin/sessions/${game.sessionId}/draws`, { count: 1 });
      expect(drawn.status).toBe(201);

      const shown = screen.next('winners');
      const res = await api.post(`/api/admin/sessions/${game.sessionId}/draws/${drawn.body.id}/show`);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ queued: true });

      // The question runs its 10 s: the winners come only after its end reached the screen.
      await clock.advance(10_000);
      expect(await shown).toEqual({ type: 'winners', prize: PRIZE_DRAW.prize, names: ['Ana'] });
      const types = screen.messages.map((m) => m.type);
      expect(types.indexOf('question_end')).toBeGreaterThanOrEqual(0);
      expect(types.indexOf('question_end')).toBeLessThan(types.indexOf('winners'));

      // In the reveal (no question open) a show goes out at once.
      const again = screen.next('winners');
      const now = await api.post(`/api/admin/sessions/${game.sessionId}/draws/${drawn.body.id}/show`);
      expect(now.status).toBe(200);
      expect(now.body).toEqual({ prize: PRIZE_DRAW.prize, names: ['Ana'] });
      await again;
    } finally {
      screen.ws.close();
      waiting.ws.close();
      phone.ws.close();
    }
  });
});
