/** Heartbeats drop dead sockets; a socket that stops reading is closed before it eats memory. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../../protocol/index.js';
import { FakeClock } from '../../game/rooms/fake-clock.js';
import { DIALECTS } from '../../testing/databases.js';
import type { TestServer } from '../../testing/server.js';
import { startHeartbeat } from './heartbeat.js';
import type { Client, Hub } from './hub.js';
import { TestSocket } from './testing/client.js';
import { type Game, createGame, display, startGameServer } from './testing/setup.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Generous: the buffer checks run on timers, which a machine shared by several test runs delays.
async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe.each(DIALECTS)('socket health on %s', (dialect) => {
  let server: TestServer;
  let game: Game;

  beforeAll(async () => {
    const started = await startGameServer(dialect, new FakeClock(), {
      heartbeat: { pingIntervalMs: 100, bufferCheckIntervalMs: 50, maxBufferedBytes: 256 * 1024 },
    });
    server = started.server;
    game = await createGame(server, started.api, { items: [{ slide: 'intro' }], players: 0 });
  });
  afterAll(() => server?.close());

  it('terminates a socket that stops answering pings and keeps one that answers', async () => {
    const silent = await TestSocket.open(server.baseUrl, { type: 'display', sessionId: game.sessionId }, { autoPong: false });
    const healthy = await display(server, game);
    expect((await silent.closed).code).toBe(1006); // terminated, no close handshake
    await sleep(300);
    expect(healthy.isOpen).toBe(true);
    expect(server.server.realtime.hub.countFor(game.sessionId).displays).toBe(1);
    await healthy.close();
  });

  it('keeps a socket that answers its ping even when this process stalls past the interval', async () => {
    const { hub } = server.server.realtime;
    const earlier = new Set([...hub.all()].map((c) => c.id));
    const healthy = await display(server, game);
    let client: ReturnType<typeof hub.all> extends Iterable<infer C> ? C | undefined : never;
    await until(() => {
      client = [...hub.all()].find((c) => c.sessionId === game.sessionId && !earlier.has(c.id));
      return client !== undefined && client.pingSentAtMs !== null;
    });
    // A busy machine: the event loop is held for four intervals while the pong waits to be read.
    const stallUntil = Date.now() + 400;
    while (Date.now() < stallUntil) {
      // busy
    }
    await until(() => client!.pingSentAtMs === null);
    await sleep(300);
    expect(healthy.isOpen).toBe(true);
    await healthy.close();
  });

  it('closes a socket whose send buffer stays over the bound, without touching the others', async () => {
    const { hub } = server.server.realtime;
    // The previous test's display may still be closing on the server: find this one by what is new.
    const earlier = new Set([...hub.all()].map((c) => c.id));
    const slow = await display(server, game);
    const slowClient = [...hub.all()].find((c) => c.sessionId === game.sessionId && c.role === 'display' && !earlier.has(c.id))!;
    const reader = await display(server, game);
    await until(() => hub.countFor(game.sessionId).displays === 2);
    slow.ws.pause(); // stops reading: the server's send buffer for it can only grow
    const big = { type: 'error', code: 'message/invalid', message: 'x'.repeat(100_000) } as ServerMessage;
    for (let i = 0; i < 200 && slowClient.socket.readyState === 1; i++) {
      hub.toConnection(game.sessionId, slowClient.id, big);
      if (i % 20 === 19) await sleep(10);
    }
    await until(() => hub.countFor(game.sessionId).displays === 1);
    expect(reader.isOpen).toBe(true);
    const frames = reader.messages.length;
    hub.toSession(game.sessionId, 'displays', { type: 'leaderboard_update', leaderboard: [] });
    await reader.waitFor((m) => m.type === 'leaderboard_update', { from: frames });
    slow.ws.resume();
    expect([4429, 1006]).toContain((await slow.closed).code);
    await reader.close();
  });
});

describe('heartbeat pings only silent sockets', () => {
  afterEach(() => vi.useRealTimers());

  function fakeClient(heardAtMs: number) {
    const socket = { readyState: WebSocket.OPEN, bufferedAmount: 0, ping: vi.fn(), terminate: vi.fn() };
    return { id: 'c', heardAtMs, pingSentAtMs: null, overBufferChecks: 0, socket } as unknown as Client & { socket: typeof socket };
  }

  it('spares a socket heard from within the interval, pings a silent one, drops it when the ping goes unanswered', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const talker = fakeClient(Date.now());
    const silent = fakeClient(Date.now());
    const hub = { all: () => [talker, silent].values() } as unknown as Hub;
    const stop = startHeartbeat(hub, { pingIntervalMs: 1_000, bufferCheckIntervalMs: 60_000, maxBufferedBytes: 1 });
    for (let t = 0; t < 10; t++) {
      vi.advanceTimersByTime(250);
      talker.heardAtMs = Date.now(); // e.g. an answer every quarter of an interval
    }
    stop();
    expect(talker.socket.ping).not.toHaveBeenCalled();
    expect(talker.socket.terminate).not.toHaveBeenCalled();
    // Silent for an interval: pinged once; silent for another: terminated.
    expect(silent.socket.ping).toHaveBeenCalledTimes(1);
    expect(silent.socket.terminate).toHaveBeenCalled();
  });
});
