/**
 * A rehearsal: one question played to a full house that is not there, through the real room
 * (queue, engine, group commit), the protocol's parser, the hub and real WebSockets, with no
 * database (the room writes into memory). It runs when a session goes live (with that session's
 * own program, so the engine's compiled code fits the objects the real game will hand it) and when
 * a server starts with live sessions, so the first question the audience sees runs on code the JIT
 * has already compiled. Without it the bench measured the first question's CPU about 40% above the
 * next ones'; with a rehearsal that stopped at the hub's encoding, the first question's fan-out
 * still ran the socket writes (ws's framing, the streams' cork and writev) interpreted, and the
 * engine's code, compiled for the rehearsal's made-up program, was thrown away at the real one's
 * first question ("wrong map" deoptimizations; docs/PERFORMANCE.md).
 *
 * The imaginary players share a few loopback sockets, opened with the socket server's own options:
 * what the JIT counts is calls, not sockets.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import WebSocket, { WebSocketServer } from 'ws';
import { parseClientMessage, type ServerMessage } from '../../../protocol/index.js';
import type { Program } from '../../game/engine/index.js';
import { type Broadcaster, MemoryRoomStorage, type RoomLog, Room, systemClock } from '../../game/rooms/index.js';
import { Hub, newClient } from './hub.js';
import { SOCKET_SERVER_OPTIONS } from './socket-server.js';

/** Enough calls for the optimizing compilers to pick up the answer and close paths. */
export const REHEARSAL_PLAYERS = 2_000;

/** Loopback sockets the imaginary players share. */
const SOCKETS = 16;

/** A rehearsal that cannot deliver its frames in this time gives up (it is a warm-up, not a test). */
const DELIVERY_TIMEOUT_MS = 10_000;

const SESSION_ID = 'rehearsal';
const QUESTION_ID = 'rehearsal-question';

const builtInProgram: Program = {
  sessionId: SESSION_ID,
  items: [
    { itemType: 'slide', id: 'rehearsal-intro', slideType: 'intro', slideData: {} },
    {
      itemType: 'question',
      id: 'rehearsal-item',
      question: {
        id: QUESTION_ID,
        text: 'Rehearsal: which film opened the first season?',
        choices: ['Metropolis', 'Nosferatu', 'The Kid', 'Safety Last!'],
        correctIndex: 0,
        points: 100,
        timeLimitSeconds: 120,
        categories: ['rehearsal'],
        media: null,
      },
    },
  ],
  media: [],
  mediaItemsPerTransition: 1,
};

/**
 * The session's own items up to its first question (the engine's code then compiles for the very
 * objects the game will use), or the built-in program when there is no question to play.
 */
function rehearsalProgram(real: Program | undefined): { program: Program; questionId: string } {
  const at = real?.items.findIndex((item) => item.itemType === 'question') ?? -1;
  const item = real?.items[at];
  if (!real || !item || item.itemType !== 'question') return { program: builtInProgram, questionId: QUESTION_ID };
  return { program: { ...real, sessionId: SESSION_ID, items: real.items.slice(0, at + 1) }, questionId: item.question.id };
}

export interface RehearsalReport {
  /** Messages the room sent, by type (one per recipient: what each player would have received). */
  sent: Map<string, number>;
  /** Frames that crossed the loopback sockets to the imaginary players. */
  framesReceived: number;
}

// The phones' ends of the loopback run on a worker thread: ws's client code (string data, masking,
// unmasked receiving) run in the server's own isolate made the shared ws functions' compiled code
// fit clients too, and the real game after a rehearsal allocated and collected more (5,000 phones
// over 5 sessions: result p99 about 145 against 120 ms without a rehearsal, docs/PERFORMANCE.md).
// Plain CommonJS, run with `eval`: no separate file to find from the sources (tsx) and the build.
// A question's fan-out pings every imaginary player behind it (hub.ts), a hundred or more on one
// shared socket at once; ws's client cuts a socket with more than 60 pongs pending (its guard
// against a ping flood), which failed every full-size rehearsal, so that guard is off here.
const PHONES_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.wsPath);
const received = new Int32Array(workerData.received);
const sockets = [];
let opened = 0;
for (let i = 0; i < workerData.count; i++) {
  const ws = new WebSocket(workerData.url + '/?i=' + i, { perMessageDeflate: false, maxPendingAutoPongs: 0 });
  sockets.push(ws);
  ws.on('message', () => Atomics.add(received, 0, 1));
  ws.once('open', () => { if (++opened === workerData.count) parentPort.postMessage({ type: 'open' }); });
  ws.on('error', (err) => { if (opened < workerData.count) parentPort.postMessage({ type: 'error', message: String(err && err.message || err) }); });
}
parentPort.on('message', (frames) => {
  for (const [i, text] of frames) sockets[i].send(text);
});
`;

const wsPath = createRequire(import.meta.url).resolve('ws');

/** Loopback WebSockets: the server ends as the socket server makes them, the phones' ends on a worker (above). */
async function openLoopback(count: number) {
  const wss = new WebSocketServer(SOCKET_SERVER_OPTIONS);
  // The server end of client i, found by the i in its URL.
  const accepted: WebSocket[] = [];
  let acceptedCount = 0;
  const httpServer = http.createServer();
  httpServer.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      accepted[Number(new URL(req.url ?? '/', 'http://loopback').searchParams.get('i'))] = ws;
      acceptedCount++;
    }),
  );
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const received = new Int32Array(new SharedArrayBuffer(4));
  const phones = new Worker(PHONES_SOURCE, { eval: true, workerData: { wsPath, url, count, received: received.buffer } });
  // Kept for the open's rejection; later, a failing worker only ends the rehearsal early (its
  // frames stop arriving) instead of an unhandled 'error' event in the server.
  let failure: Error | undefined;
  phones.on('error', (err) => (failure ??= err));
  // Resolves once the worker, every socket and the listener are gone: the rehearsal leaves nothing running.
  const close = async () => {
    await phones.terminate();
    const open = accepted.filter((ws) => ws && ws.readyState !== WebSocket.CLOSED);
    const closed = open.map((ws) => new Promise<void>((resolve) => ws.once('close', () => resolve())));
    for (const ws of open) ws.terminate();
    await Promise.all(closed);
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  };
  try {
    await new Promise<void>((resolve, reject) => {
      phones.on('message', (message: { type: string; message?: string }) => {
        if (message.type === 'open') resolve();
        else reject(new Error(`the rehearsal's loopback did not open: ${message.message}`));
      });
      phones.once('exit', () => reject(failure ?? new Error("the rehearsal's phones stopped")));
    });
    // A client is open once the server has upgraded it: its end is in `accepted` by now.
    if (acceptedCount < count) throw new Error(`the rehearsal's loopback accepted ${acceptedCount} of ${count} sockets`);
  } catch (err) {
    await close(); // a warm-up that cannot open its sockets leaves nothing listening
    throw err;
  }
  return {
    servers: accepted,
    /** Sends text frames from the phones' ends: [socket index, text]. */
    send: (frames: [number, string][]) => phones.postMessage(frames),
    received: () => Atomics.load(received, 0),
    close,
  };
}

/** Plays the rehearsal (the given program's first question, else the built-in one). */
export async function rehearse(log: RoomLog, players = REHEARSAL_PLAYERS, realProgram?: Program): Promise<RehearsalReport> {
  const { program, questionId } = rehearsalProgram(realProgram);
  const sent = new Map<string, number>();
  const count = (message: ServerMessage, recipients: number) => sent.set(message.type, (sent.get(message.type) ?? 0) + recipients);
  const hub = new Hub();
  let joined = 0;
  let framesExpected = 0;
  // The hub as the room's broadcaster (as in production, behind a thin wrapper), counting what
  // the players in the hub should receive; the rehearsal has no admin or display sockets.
  const broadcaster: Broadcaster = {
    toSession: (sessionId, target, message) => {
      if (target === 'all' || target === 'audience' || target === 'players') {
        count(message, joined);
        framesExpected += joined;
      }
      hub.toSession(sessionId, target, message);
    },
    toPlayer: (sessionId, playerId, message) => {
      count(message, 1);
      framesExpected++;
      hub.toPlayer(sessionId, playerId, message);
    },
    toConnection: (sessionId, connectionId, message) => hub.toConnection(sessionId, connectionId, message),
  };
  const storage = new MemoryRoomStorage();
  storage.addSession(program, { status: 'live', autoRotate: false });
  const room = new Room(SESSION_ID, { storage, broadcaster, clock: systemClock, log, commitWindowMs: 0, onUnused: () => {} });
  const loopback = await openLoopback(Math.min(SOCKETS, players));
  try {
    await room.load(); // live without a snapshot: at the program's first item
    const clients = Array.from({ length: players }, (_, i) =>
      newClient(`rehearsal-${i}`, SESSION_ID, 'player', `rehearsal-player-${i}`, loopback.servers[i % loopback.servers.length], Date.now()),
    );
    await Promise.all(
      clients.map((client, i) =>
        room.connect({ connectionId: client.id, role: 'player', playerId: client.playerId ?? undefined, name: `Player ${i}` }, (initial) => {
          hub.add(client);
          joined++;
          hub.sendTo(client, initial);
          framesExpected++;
        }),
      ),
    );
    // On to the question (the session's program may open with slides).
    for (let step = 0; step < program.items.length && room.engineState?.phase.kind !== 'question'; step++) {
      room.dispatch({ type: 'admin_next_question', connectionId: 'rehearsal-admin' });
      await room.whenIdle();
    }
    // Each player's answer crosses its socket, masked like a phone's, and is parsed and dispatched
    // as the socket server does; a socket's answers arrive in the order they were sent.
    const waiting = loopback.servers.map(() => [] as typeof clients);
    loopback.servers.forEach((ws, s) =>
      ws.on('message', (data: Buffer) => {
        const client = waiting[s].shift();
        const parsed = parseClientMessage(data.toString('utf8'), 'player');
        if (!client || !parsed.ok || parsed.message.type !== 'submit_answer') return;
        const { questionId: answered, selectedIndex } = parsed.message;
        room.dispatch({ type: 'submit_answer', connectionId: client.id, playerId: client.playerId ?? '', questionId: answered, selectedIndex });
      }),
    );
    const answers: [number, string][] = clients.map((client, i) => {
      waiting[i % loopback.servers.length].push(client);
      return [i % loopback.servers.length, `{"type":"submit_answer","questionId":${JSON.stringify(questionId)},"selectedIndex":${i % 4}}`];
    });
    loopback.send(answers);
    // The last answer closes the question: results sent, scores "stored".
    const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
    while ((sent.get('answer_result') ?? 0) < players || loopback.received() < framesExpected) {
      if (Date.now() > deadline) throw new Error(`the rehearsal delivered ${loopback.received()} of ${framesExpected} frames`);
      // A lost socket's frames never arrive: no point waiting out the deadline.
      const lost = loopback.servers.filter((ws) => ws.readyState !== WebSocket.OPEN).length;
      if (lost > 0) throw new Error(`the rehearsal lost ${lost} of its ${loopback.servers.length} sockets (delivered ${loopback.received()} of ${framesExpected} frames)`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await room.whenIdle();
  } finally {
    await room.dispose();
    await loopback.close();
  }
  return { sent, framesReceived: loopback.received() };
}
