/** Screens follow edits of the session (title, theme) without a reload. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../rooms/fake-clock.js';
import type { TestApi } from '../testing/api.js';
import type { TestServer } from '../testing/server.js';
import { type Game, createGame, display, player, startGameServer } from './test-setup.js';

describe('session info on the socket', () => {
  let server: TestServer;
  let api: TestApi;
  let game: Game;

  beforeAll(async () => {
    const started = await startGameServer('sqlite', new FakeClock());
    server = started.server;
    api = started.api;
    game = await createGame(server, api, { items: [{ slide: 'intro' }], players: 1 });
  });
  afterAll(() => server?.close());

  it('announces a new theme and title to the display and the phones', async () => {
    const screen = await display(server, game);
    const phone = await player(server, game, 0);
    expect((await api.put(`/api/admin/sessions/${game.sessionId}`, { theme: { primaryColor: '#123456' } })).status).toBe(200);
    for (const socket of [screen, phone]) {
      const info = await socket.waitFor((m) => m.type === 'session_info');
      expect(info.session).toMatchObject({ id: game.sessionId, title: 'Test Night', theme: { primaryColor: '#123456' } });
      // Public fields only: nothing an admin keeps to themselves crosses to the audience.
      expect(Object.keys(info.session).sort()).toEqual(['id', 'mediaItemsPerTransition', 'status', 'theme', 'title']);
    }
    expect((await api.put(`/api/admin/sessions/${game.sessionId}`, { title: 'Late Show' })).status).toBe(200);
    const renamed = await screen.waitFor((m) => m.type === 'session_info' && m.session.title === 'Late Show');
    expect(renamed.session.theme).toEqual({ primaryColor: '#123456' });
    await screen.close();
    await phone.close();
  });
});
