/**
 * The second signal (DESIGN §8): a server shutting down gracefully after SIGTERM exits at once on
 * a second one, with 128 + the signal's number (docs/OPERATIONS.md). The real server runs as a
 * child process with a live question and phones; its shutdown is held open by what a real one can
 * meet: an HTTP request still in progress (a client that announced a body and never sends it),
 * which the server waits for. Every step waits for an event (a log line, a close, the exit), never
 * for a fixed time, so a busy machine only makes it slower.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../../protocol/index.js';
import { adminToken, type ChildServer, freePort, startChildServer } from '../../testing/child-server.js';
import { createTestDatabase, type TestDatabase } from '../../testing/databases.js';
import { TestApi } from '../../testing/api.js';
import { startTestServer } from '../../testing/server.js';
import { createGame } from './testing/setup.js';
import { TestSocket } from './testing/client.js';

const EVENT_TIMEOUT_MS = 120_000;

/** Resolves once the file holds a line containing `text` (the child's log, written as it goes). */
async function logLine(file: string, text: string): Promise<void> {
  const deadline = Date.now() + EVENT_TIMEOUT_MS;
  while (!fs.readFileSync(file, 'utf8').includes(text)) {
    if (Date.now() > deadline) throw new Error(`"${text}" never appeared in ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Starts a request the server must wait for: headers announcing a body that never comes. Resolves
 * once the server has read the headers and is waiting for the body (it answers 100 Continue).
 */
function stalledRequest(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.write(
        'POST /api/admin/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\nExpect: 100-continue\r\n\r\n',
      );
    });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.startsWith('HTTP/1.1 100 Continue')) resolve(socket);
    });
    socket.once('error', reject);
  });
}

describe('a second signal during a graceful shutdown', () => {
  let database: TestDatabase | undefined;
  let server: ChildServer | undefined;
  const sockets: TestSocket[] = [];
  let stalled: net.Socket | undefined;
  afterAll(async () => {
    stalled?.destroy();
    for (const socket of sockets) socket.ws.terminate();
    await server?.kill('SIGKILL');
    await database?.drop();
  });

  it('exits at once with 143 while the first SIGTERM is still shutting down', { timeout: 300_000 }, async () => {
    database = await createTestDatabase('sqlite');
    const setup = await startTestServer({ database, realtime: { rehearsalPlayers: 0 } });
    const api = new TestApi(setup);
    await api.login();
    const game = await createGame(setup, api, { items: [{ question: { text: 'Who runs the projector?', correctIndex: 1, timeLimitSeconds: 300 } }], players: 3 });
    await setup.close();

    const port = await freePort();
    const logPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-signal-')), 'server.log');
    // Info level: the shutdown's own log lines are the events this test waits for.
    server = await startChildServer(database, port, logPath, { LOG_LEVEL: 'info' });
    for (const p of game.players) {
      sockets.push(await TestSocket.join(server.baseUrl, { type: 'player', sessionId: game.sessionId, playerId: p.id, playerToken: p.playerToken }));
    }
    const started = await fetch(`${server.baseUrl}/api/admin/sessions/${game.sessionId}/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await adminToken(server.baseUrl)}` },
    });
    expect(started.status).toBe(200);
    await sockets[0].waitFor((m) => m.type === 'session_state' && m.phase === 'question', { timeoutMs: EVENT_TIMEOUT_MS });
    stalled = await stalledRequest(port);

    server.process.kill('SIGTERM');
    await logLine(logPath, 'SIGTERM received, shutting down');
    // The graceful shutdown runs: the game is stored and the phones are told to go away...
    expect((await sockets[0].closed).code).toBe(CLOSE_CODES.goingAway);
    // ...and it cannot finish while the request is open: the process is still there.
    expect(server.process.exitCode).toBeNull();
    expect(stalled.destroyed).toBe(false);

    server.process.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 143, signal: null });
    await logLine(logPath, 'SIGTERM received again: exiting now');
  });
});
