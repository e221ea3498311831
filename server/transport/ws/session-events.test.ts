/**
 * What open sockets see of the session around them: edits announced (session_info), deletion
 * (4410), and the limit a runaway or hostile client meets (message rate).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, MAX_CLIENT_MESSAGE_BURST } from '../../../protocol/index.js';
import { FakeClock } from '../../game/rooms/fake-clock.js';
import type { TestApi } from '../../testing/api.js';
import type { TestServer } from '../../testing/server.js';
import { type Game, createGame, display, player, startGameServer } from './testing/setup.js';

describe('session events and socket limits', () => {
  let server: TestServer;
  let api: TestApi;
  let game: Game;

  beforeAll(async () => {
    const started = await startGameServer('sqlite', new FakeClock());
    server = started.server;
    api = started.api;
    game = await createGame(server, api, { items: [{ slide: 'intro' }], players: 2 });
  });
  afterAll(() => server?.close());

  it('answers a few bad messages with errors but closes a socket that floods', async () => {
    const calm = await player(server, game, 0);
    const flooder = await player(server, game, 1);
    for (let i = 0; i < 3; i++) calm.send('not json');
    await calm.waitFor((m) => m.type === 'error');
    for (let i = 0; i < MAX_CLIENT_MESSAGE_BURST + 30; i++) flooder.send('not json');
    expect(await flooder.closed).toEqual({ code: CLOSE_CODES.tooManyMessages, reason: 'Too many messages' });
    expect(calm.isOpen).toBe(true);
    await calm.close();
  });

  it('closes the sockets of a session when it is deleted, with 4410', async () => {
    const other = await createGame(server, api, { items: [{ slide: 'rules' }], players: 0 });
    const screen = await display(server, other);
    expect((await api.delete(`/api/admin/sessions/${other.sessionId}`)).status).toBe(204);
    expect(await screen.closed).toEqual({ code: CLOSE_CODES.sessionGone, reason: 'Session deleted' });
  });

  it('announces a new theme and title to the display and the phones', async () => {
    const screen = await display(server, game);
    const phone = await player(server, game, 0);
    expect((await api.put(`/api/admin/sessions/${game.sessionId}`, { theme: { primaryColor: '#123456' } })).status).toBe(200);
    for (const socket of [screen, phone]) {
      const info = await socket.waitFor((m) => m.type === 'session_info');
      expect(info.session).toMatchObject({ id: game.sessionId, title: 'Test Night', theme: { primaryColor: '#123456' } });
      // Public fields only: nothing an admin keeps to themselves crosses to the audience.
      expect(Object.keys(info.session).sort()).toEqual(['id', 'mediaItemsPerTransition', 'prizeDraw', 'status', 'theme', 'title']);
    }
    expect((await api.put(`/api/admin/sessions/${game.sessionId}`, { title: 'Late Show' })).status).toBe(200);
    const renamed = await screen.waitFor((m) => m.type === 'session_info' && m.session.title === 'Late Show');
    expect(renamed.session.theme).toEqual({ primaryColor: '#123456' });
    await screen.close();
    await phone.close();
  });
});
