/** Limits a hostile or runaway client meets: message rate, and sockets of a deleted session. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, MAX_CLIENT_MESSAGE_BURST } from '../../protocol/index.js';
import { FakeClock } from '../rooms/fake-clock.js';
import type { TestApi } from '../testing/api.js';
import type { TestServer } from '../testing/server.js';
import { type Game, createGame, display, player, startGameServer } from './test-setup.js';

describe('socket limits', () => {
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
});
