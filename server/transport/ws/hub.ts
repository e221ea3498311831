/**
 * The sockets of every session, grouped by role, and the fan-out that reaches them.
 *
 * A broadcast is serialized ONCE, straight into one framed Buffer, and the same frame is handed to
 * every socket of the target groups: no per-socket JSON, framing or copy. Keeping the groups as
 * Sets per role makes a broadcast a plain loop.
 */
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import type { ClientRole, ServerMessage } from '../../../protocol/index.js';
import type { BroadcastTarget } from '../../game/engine/index.js';
import type { Broadcaster } from '../../game/rooms/index.js';
import type { DatagramPaths } from './datagram.js';
import type { Client } from './client.js';
import { probeAlong } from './link-probe.js';

export { type Client, newClient } from './client.js';

interface SessionSockets {
  admins: Set<Client>;
  displays: Set<Client>;
  players: Set<Client>;
  byPlayer: Map<string, Set<Client>>;
  /**
   * Whether the session's last state shown here had a question open; null until a state went
   * out through this hub (in multi-instance mode a relaying instance only forwards frames).
   */
  questionOpen: boolean | null;
}

/** Text frames: a Buffer would otherwise go out as a binary frame. */
const TEXT_FRAME = { binary: false } as const;

/**
 * Write coalescing. A socket written to is corked until the current run of synchronous code (and
 * its microtasks) ends, so the frames one engine step sends it leave in ONE write syscall: at a
 * question's end a phone gets answer_result, question_end, leaderboard_update and the reveal
 * state, which would otherwise be four. On loopback the bench measured the syscall, not framing
 * or JSON, as the largest cost of a round (docs/PERFORMANCE.md).
 */
const corkedSockets: Socket[] = [];

function uncorkAll(): void {
  // Indexed: after every socket's read while answers come in, and an iterator was an object each time.
  for (let i = 0; i < corkedSockets.length; i++) corkedSockets[i].uncork();
  corkedSockets.length = 0;
}

/** The TCP socket under a ws WebSocket (`_socket` is ws's own field; absent on test doubles). */
function tcpSocketOf(ws: WebSocket): Socket | undefined {
  return (ws as unknown as { _socket?: Socket })._socket;
}

/**
 * Hands `payload` to one socket, framed here (`wireFrame`): `wire` when the caller built the frame
 * already (a broadcast: once for every socket of a group), else a frame of its own (a player's own
 * message, a string encoded straight into it: one Buffer, one write). A test's stand-in without a
 * TCP socket is handed the payload through ws.
 */
function send(client: Client, payload: Buffer | string, wire?: Buffer): void {
  const ws = client.socket;
  if (ws.readyState !== WebSocket.OPEN) return;
  const socket = tcpSocketOf(ws);
  if (!socket) {
    ws.send(payload, TEXT_FRAME);
    return;
  }
  writeFrame(socket, wire ?? wireFrame(payload));
}

/** Corked until the current run of code ends (above). */
function writeFrame(socket: Socket, frame: Buffer): void {
  if (socket.writableCorked === 0) {
    socket.cork();
    if (corkedSockets.push(socket) === 1) process.nextTick(uncorkAll);
  }
  socket.write(frame);
}

/*
 * Frames go to the TCP socket as they are, not through ws's `send`, which frames every copy anew
 * (a header Buffer, its options and two writes per socket: at a question's start and end, 10,000
 * of each, issue 26). A server's frames are never masked, so a broadcast's bytes are the same for
 * every socket. Compression is off (SOCKET_SERVER_OPTIONS) and the hub never sends a Blob, so
 * ws's sender never holds a frame back that one of these could overtake.
 */
const TEXT_FIN = 0x81;
const PING_FIN = 0x89;

/** A text frame (or a ping) of `payload`: a Buffer, or a string encoded straight into the frame. */
function wireFrame(payload: Buffer | string, first = TEXT_FIN): Buffer {
  const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = first;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  if (typeof payload === 'string') frame.write(payload, headerLength);
  else payload.copy(frame, headerLength);
  return frame;
}

/** The payload of a frame made by `wireFrame`: a view of it, not a copy. */
function payloadOf(wire: Buffer): Buffer {
  const length = wire[1] & 0x7f;
  return wire.subarray(length < 126 ? 2 : length === 126 ? 4 : 10);
}

/** A ping without payload: the same two bytes for every socket. */
const EMPTY_PING = wireFrame(Buffer.alloc(0), PING_FIN);

/** A ping frame to an open socket, as the hub's other frames go; a test's stand-in without a TCP socket pings through ws. */
function sendPing(ws: WebSocket, wire: Buffer, payload?: string): void {
  const socket = tcpSocketOf(ws);
  if (socket) writeFrame(socket, wire);
  else ws.ping(payload);
}

/**
 * The heartbeat's ping to an open socket (heartbeat.ts): ws's own `ping` framed every one anew, a
 * fifth of the server's CPU while ten thousand phones sat idle (issue 26).
 */
export function pingClient(client: Client): void {
  sendPing(client.socket, EMPTY_PING);
}

/** The same frame to every client of a group; true when the group had any. */
function sendAll(clients: Set<Client>, payload: Buffer, wire: Buffer): boolean {
  if (clients.size === 0) return false;
  for (const client of clients) send(client, payload, wire);
  return true;
}

/** A state showing an open question: the phone's countdown (and its reaction time) starts with it. */
function openQuestionId(message: ServerMessage): string | null {
  return message.type === 'session_state' && message.phase === 'question' && message.question !== null ? message.question.id : null;
}

/**
 * A ping right behind the question, on the same stream: its pong cannot return before the
 * question arrived, so its round trip measures that question's way down (link-delay.ts).
 */
function pingBehindQuestion(client: Client, questionId: string, nowMs: number): void {
  if (client.socket.readyState !== WebSocket.OPEN) return;
  const payload = client.link.questionPing(nowMs, questionId);
  sendPing(client.socket, wireFrame(payload, PING_FIN), payload);
}

/**
 * An open question to a session's phones, each with its ping right behind it (above). The ping's
 * payload is the time the question went out, the same for every phone of one fan-out, so the
 * question's frame and the ping's are joined once into one buffer for all of them: one chunk per
 * socket, where two made every phone's write a writev (issue 26).
 */
function sendQuestion(players: Set<Client>, payload: Buffer, wire: Buffer, questionId: string): boolean {
  if (players.size === 0) return false;
  const nowMs = Date.now();
  let joined: Buffer | undefined;
  let joinedPing = '';
  for (const client of players) {
    const ws = client.socket;
    if (ws.readyState !== WebSocket.OPEN) continue;
    const ping = client.link.questionPing(nowMs, questionId);
    const socket = tcpSocketOf(ws);
    if (!socket) {
      ws.send(payload, TEXT_FRAME);
      ws.ping(ping);
      continue;
    }
    // Joined again only should a phone's ping ever differ from the previous one's.
    if (ping !== joinedPing) {
      joined = Buffer.concat([wire, wireFrame(ping, PING_FIN)]);
      joinedPing = ping;
    }
    writeFrame(socket, joined!);
  }
  return true;
}

export class Hub implements Broadcaster {
  private readonly sessions = new Map<string, SessionSockets>();
  private readonly clients = new Map<string, Client>();
  /** Pings behind each question (link-delay.ts); off where the game runs on a fake clock. */
  private readonly measureLinks: boolean;
  /** Link probes due ride along with broadcasts (link-probe.ts); 0: none here. */
  private readonly probeIntervalMs: number;
  /** Slow phones' datagram paths (datagram.ts): what they carry is handed over here too. */
  datagrams: DatagramPaths | null = null;

  constructor(options: { measureLinks?: boolean; probeIntervalMs?: number } = {}) {
    this.measureLinks = options.measureLinks ?? true;
    this.probeIntervalMs = this.measureLinks ? (options.probeIntervalMs ?? 0) : 0;
  }

  add(client: Client): void {
    let group = this.sessions.get(client.sessionId);
    if (!group) {
      group = { admins: new Set(), displays: new Set(), players: new Set(), byPlayer: new Map(), questionOpen: null };
      this.sessions.set(client.sessionId, group);
    }
    this.clients.set(client.id, client);
    this.roleSet(group, client.role).add(client);
    if (client.playerId !== null) {
      const own = group.byPlayer.get(client.playerId) ?? new Set<Client>();
      own.add(client);
      group.byPlayer.set(client.playerId, own);
    }
  }

  remove(client: Client): void {
    if (this.clients.get(client.id) !== client) return;
    this.clients.delete(client.id);
    const group = this.sessions.get(client.sessionId);
    if (!group) return;
    this.roleSet(group, client.role).delete(client);
    if (client.playerId !== null) {
      const own = group.byPlayer.get(client.playerId);
      own?.delete(client);
      if (own?.size === 0) group.byPlayer.delete(client.playerId);
    }
    if (group.admins.size + group.displays.size + group.players.size === 0) this.sessions.delete(client.sessionId);
  }

  get size(): number {
    return this.clients.size;
  }

  /** Sockets of one session (for tests and diagnostics). */
  countFor(sessionId: string): { admins: number; displays: number; players: number } {
    const group = this.sessions.get(sessionId);
    return { admins: group?.admins.size ?? 0, displays: group?.displays.size ?? 0, players: group?.players.size ?? 0 };
  }

  /** Open sockets by role, counted when asked (the metrics' scrape), never kept up to date. */
  countByRole(): Record<ClientRole, number> {
    const counts = { admin: 0, display: 0, player: 0 };
    for (const group of this.sessions.values()) {
      counts.admin += group.admins.size;
      counts.display += group.displays.size;
      counts.player += group.players.size;
    }
    return counts;
  }

  all(): IterableIterator<Client> {
    return this.clients.values();
  }

  toSession(sessionId: string, target: BroadcastTarget, message: ServerMessage): void {
    const group = this.sessions.get(sessionId);
    if (!group) return;
    const questionId = openQuestionId(message);
    // Serialized straight into its frame, once for every group: one buffer, no copy (issue 26).
    const wire = wireFrame(JSON.stringify(message));
    this.sendFramed(group, sessionId, target, payloadOf(wire), wire, this.measureLinks ? questionId : null);
    const toPlayers = target === 'all' || target === 'audience' || target === 'players';
    // The reveal starts with question_end (no state of its own goes to players): from here
    // nothing is credited, so the link probes leave the session alone (issue 26: left open, they
    // pinged every phone through the reveal, half a write per phone per round).
    if (toPlayers && message.type === 'question_end') group.questionOpen = false;
    if (toPlayers && message.type === 'session_state') group.questionOpen = questionId !== null;
  }

  /**
   * Each player socket of the sessions that may have a question open (not known to have none): the
   * link probes' round, over every phone several times a second (a callback: no generator resumed
   * per phone).
   */
  forEachPlayerInQuestions(visit: (client: Client) => void): void {
    for (const group of this.sessions.values()) {
      if (group.questionOpen !== false) for (const client of group.players) visit(client);
    }
  }


  // A player's own messages go as strings, encoded straight into their frame (see `send`).

  toPlayer(sessionId: string, playerId: string, message: ServerMessage): void {
    if (this.sessions.get(sessionId)?.byPlayer.has(playerId)) this.frameToPlayer(sessionId, playerId, JSON.stringify(message));
  }

  toConnection(_sessionId: string, connectionId: string, message: ServerMessage): void {
    if (this.clients.has(connectionId)) this.frameToConnection(connectionId, JSON.stringify(message));
  }

  // Already serialized frames (multi-instance mode relays the owner's bytes as they are).

  // Each returns whether a socket here was among the targets (the relay counts frames it had no use for).

  frameToSession(sessionId: string, target: BroadcastTarget, frame: Buffer): boolean {
    const group = this.sessions.get(sessionId);
    return group !== undefined && this.sendFramed(group, sessionId, target, frame, wireFrame(frame), null);
  }

  /**
   * `payload` framed as `wire` to the target's groups (a broadcast, or a relayed frame). With a
   * `questionId` the phones get it with the question's ping behind it, which is their probe; other
   * frames take along the probes due (link-probe.ts).
   */
  private sendFramed(group: SessionSockets, sessionId: string, target: BroadcastTarget, payload: Buffer, wire: Buffer, questionId: string | null): boolean {
    let sent = false;
    if (target === 'all' || target === 'admins' || target === 'screens') sent = sendAll(group.admins, payload, wire) || sent;
    if (target === 'all' || target === 'audience' || target === 'displays' || target === 'screens') sent = sendAll(group.displays, payload, wire) || sent;
    if (target === 'all' || target === 'audience' || target === 'players') {
      const toPlayers = questionId !== null ? sendQuestion(group.players, payload, wire, questionId) : sendAll(group.players, payload, wire);
      sent = toPlayers || sent;
      if (questionId === null && this.probeIntervalMs > 0 && group.questionOpen !== false) probeAlong(group.players, this.probeIntervalMs);
      this.datagrams?.toSession(sessionId, payload);
    }
    return sent;
  }

  frameToPlayer(sessionId: string, playerId: string, frame: Buffer | string): boolean {
    const own = this.sessions.get(sessionId)?.byPlayer.get(playerId);
    if (!own) return false;
    for (const client of own) send(client, frame);
    this.datagrams?.toPlayer(sessionId, playerId, frame);
    return true;
  }

  frameToConnection(connectionId: string, frame: Buffer | string): boolean {
    const client = this.clients.get(connectionId);
    if (!client) return false;
    send(client, frame);
    // A resend's acceptance is a reply to its socket: a pick repeated on the path needs it there too.
    if (client.playerId !== null) this.datagrams?.toPlayer(client.sessionId, client.playerId, frame);
    return true;
  }

  /** Sockets of one session (multi-instance mode re-announces them to a new owner). */
  clientsOf(sessionId: string): Client[] {
    const group = this.sessions.get(sessionId);
    return group ? [...group.admins, ...group.displays, ...group.players] : [];
  }

  /** The open sockets of one player. */
  playerClients(sessionId: string, playerId: string): Iterable<Client> {
    return this.sessions.get(sessionId)?.byPlayer.get(playerId) ?? [];
  }

  /** Sessions with sockets here. */
  sessionIds(): IterableIterator<string> {
    return this.sessions.keys();
  }

  hasSession(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** Closes every socket of a session (it was deleted). */
  closeSession(sessionId: string, code: number, reason: string): void {
    const group = this.sessions.get(sessionId);
    if (!group) return;
    for (const set of [group.admins, group.displays, group.players]) for (const client of set) client.socket.close(code, reason);
  }

  /** Closes every socket of one player in a session (the host kicked them). */
  closePlayer(sessionId: string, playerId: string, code: number, reason: string): void {
    const sockets = this.sessions.get(sessionId)?.byPlayer.get(playerId);
    if (!sockets) return;
    for (const client of [...sockets]) client.socket.close(code, reason);
  }

  /** One message to one socket that may not be registered yet (its first session_state). */
  sendTo(client: Client, message: ServerMessage | Buffer): void {
    // A message is encoded straight into its frame (a socket's first state: one Buffer, not two).
    send(client, Buffer.isBuffer(message) ? message : JSON.stringify(message));
    if (Buffer.isBuffer(message) || message.type !== 'session_state') return;
    const questionId = openQuestionId(message);
    const group = this.sessions.get(client.sessionId);
    if (group) group.questionOpen = questionId !== null;
    if (questionId !== null && this.measureLinks && client.role === 'player') pingBehindQuestion(client, questionId, Date.now());
  }

  private roleSet(group: SessionSockets, role: ClientRole): Set<Client> {
    return role === 'admin' ? group.admins : role === 'display' ? group.displays : group.players;
  }
}
