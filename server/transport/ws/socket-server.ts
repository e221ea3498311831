/**
 * The WebSocket endpoint at /ws, on the HTTP server's `upgrade` event (`ws` with noServer).
 *
 * Upgrade: the query is checked (auth.ts) and the session's room acquired BEFORE the handshake
 * completes, so by the time a client can send anything its socket is wired to a room. Refusals
 * complete the handshake and close with 4400/4401/4404 and a reason.
 *
 * Per socket: every text frame goes through the protocol's parser (errors answered, socket
 * kept); valid messages become engine events on the room's queue, stamped on arrival. Frames
 * over 16 KB are refused by `ws` itself with close code 1009.
 *
 * A player's upgrade may carry an unconfirmed pick in its `answer` parameter (DESIGN §14): the
 * same `submit_answer` message, checked by the same parser, taken as the socket's first message.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import {
  CLOSE_CODES, ERROR_CODES, MAX_CLIENT_FRAME_BYTES, MAX_CLIENT_MESSAGE_BURST, MAX_CLIENT_MESSAGES_PER_SECOND, type PlayerAnswerBody, type SubmitAnswerMessage,
  errorMessage, parseClientMessage, parseDatagramMessage,
} from '../../../protocol/index.js';
import type { EngineEvent } from '../../game/engine/index.js';
import type { RoomDirectory, RoomLog, RoomPort } from '../../game/rooms/index.js';
import { type AuthDeps, type ConnectionAuth, authenticateConnection } from './auth.js';
import { type Client, type Hub, newClient } from './hub.js';
import type { AdminSockets } from './admin-sockets.js';
import { CutOffs } from './cut-offs.js';
import type { DatagramPaths } from './datagram.js';
import { LinkDelay } from './link-delay.js';
import { refilledTokens } from './token-bucket.js';

export const WS_PATH = '/ws';
/** RFC 6455 "internal error": something failed on our side while connecting. */
const INTERNAL_ERROR = 1011;
/** The upgrade's `answer` parameter: a submit_answer message is about 150 bytes. */
export const MAX_UPGRADE_ANSWER_CHARS = 1_024;

/** 202: handed to the game (its confirmation goes to the player's sockets); else why not. */
export type HttpAnswerOutcome = { status: 202 } | { status: 400 | 401 | 403 | 404 | 429 | 503; message: string };

/** A refused connection's close code, as the HTTP status it mirrors (protocol CLOSE_CODES). */
const STATUS_OF_CLOSE: Record<number, 400 | 401 | 403 | 404> = {
  [CLOSE_CODES.badRequest]: 400,
  [CLOSE_CODES.unauthorized]: 401,
  [CLOSE_CODES.removed]: 403,
  [CLOSE_CODES.notFound]: 404,
};

/** Per-player buckets of HTTP picks idle this long are forgotten (swept at most this often). */
const HTTP_BUCKET_IDLE_MS = 10_000;

/** The engine event of a player's pick, wherever it came from (a socket, an upgrade, HTTP). */
function answerEvent(connectionId: string, playerId: string, message: SubmitAnswerMessage, allowanceMs: number | undefined): EngineEvent {
  const { questionId, selectedIndex, answerId, reactionMs } = message;
  return { type: 'submit_answer', connectionId, playerId, questionId, selectedIndex, answerId, reactionMs, allowanceMs };
}

export interface SocketServerDeps extends AuthDeps {
  httpServer: HttpServer;
  hub: Hub;
  /** The sessions' games: the local RoomManager, or the cluster's ports (multi-instance mode). */
  rooms: RoomDirectory;
  log: RoomLog;
  /** Admin sockets by token: closed on logout and expiry. */
  adminSockets: AdminSockets;
  /** Credit answers with each phone's measured delay (link-delay.ts); off on a fake game clock. */
  measureLinks?: boolean;
  /** Slow phones' datagram paths (datagram.ts); absent: off. */
  datagrams?: DatagramPaths;
}

/** The players' and screens' WebSocket server (the rehearsal opens its loopback sockets with it too). */
export const SOCKET_SERVER_OPTIONS = {
  noServer: true,
  maxPayload: MAX_CLIENT_FRAME_BYTES,
  // Compression would cost CPU per socket per message and defeat serialize-once fan-out.
  perMessageDeflate: false,
  clientTracking: false,
} as const;

export class SocketServer {
  private readonly wss = new WebSocketServer(SOCKET_SERVER_OPTIONS);
  private readonly sockets = new Set<WebSocket>();
  private readonly cutOffs = new CutOffs();
  private nextConnectionId = 1;
  private closing = false;
  /** HTTP picks per player: a token bucket each, as a socket's messages have. */
  private readonly httpBuckets = new Map<string, { tokens: number; atMs: number }>();
  private httpBucketsSweptAtMs = 0;
  /** Each player socket's room: a message on the player's datagram path goes to it. */
  private readonly roomOf = new WeakMap<Client, RoomPort>();

  constructor(private readonly deps: SocketServerDeps) {
    deps.httpServer.on('upgrade', this.onUpgrade);
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== WS_PATH || this.closing) {
      socket.end(`HTTP/1.1 ${this.closing ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\n\r\n`);
      return;
    }
    // Until ws owns the socket, a reset during the auth lookups must not crash the process.
    socket.on('error', () => socket.destroy());
    this.accept(request, socket, head, url.searchParams).catch((err) => {
      this.deps.log.error({ err }, 'websocket upgrade failed');
      socket.destroy();
    });
  };

  private async accept(request: IncomingMessage, socket: Duplex, head: Buffer, query: URLSearchParams): Promise<void> {
    let auth: ConnectionAuth;
    try {
      auth = await authenticateConnection(query, this.deps);
    } catch (err) {
      this.deps.log.error({ err }, 'websocket authentication failed');
      auth = { ok: false, code: INTERNAL_ERROR, reason: 'Server error, please reconnect' };
    }
    const room = auth.ok ? await this.deps.rooms.acquire(auth.sessionId) : null;
    if (auth.ok && !room) auth = { ok: false, code: CLOSE_CODES.notFound, reason: 'Session not found' };
    if (socket.destroyed || this.closing) {
      room?.release();
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      if (!auth.ok || !room) {
        ws.close(auth.ok ? CLOSE_CODES.notFound : auth.code, auth.ok ? 'Session not found' : auth.reason);
        return;
      }
      if (auth.adminToken) this.deps.adminSockets.add(ws, auth.adminToken.hash, auth.adminToken.expiresAtMs);
      this.attach(ws, room, auth.role, auth.playerId, auth.name, query.get('answer'));
    });
  }

  private attach(ws: WebSocket, room: RoomPort, role: Client['role'], playerId: string | null, name: string | null, upgradeAnswer: string | null): void {
    const { hub, log } = this.deps;
    const client = newClient(`c${this.nextConnectionId++}`, room.sessionId, role, playerId, ws, Date.now());
    this.sockets.add(ws);
    if (playerId !== null) {
      this.roomOf.set(client, room);
      this.deps.datagrams?.adopt(client);
    }

    const measure = this.deps.measureLinks ?? true;
    if (playerId !== null && measure) {
      const previous = [...hub.playerClients(room.sessionId, playerId)].find((other) => other !== client)?.link;
      this.creditCutOff(client.link, room.sessionId, playerId, client.heardAtMs, previous, true);
      client.link.onReport = (allowanceMs) => room.dispatch({ type: 'player_delay', playerId, allowanceMs });
    }
    ws.on('message', (data, isBinary) => this.onMessage(client, room, data, isBinary));
    ws.on('pong', (data) => {
      this.heardFrom(client);
      const allowanceMs = client.link.onPong(data, client.heardAtMs);
      if (allowanceMs !== null && playerId !== null && measure) room.dispatch({ type: 'player_delay', playerId, allowanceMs });
    });
    ws.on('error', (err) => log.warn({ err, connectionId: client.id }, 'websocket error'));
    ws.on('close', () => {
      this.sockets.delete(ws);
      hub.remove(client);
      this.deps.datagrams?.released(client);
      if (playerId !== null) this.cutOffs.gone(room.sessionId, playerId, client.heardAtMs);
      room
        .disconnect(client.id)
        .catch(() => undefined) // the room may be closed already (shutdown)
        .finally(() => room.release());
    });

    const member = { connectionId: client.id, role, playerId: playerId ?? undefined, name: name ?? undefined };
    room
      .connect(member, (initial) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        // Registered in the room's turn: every later broadcast reaches this socket, none earlier.
        hub.add(client);
        hub.sendTo(client, initial);
      })
      .catch((err) => {
        log.warn({ err, connectionId: client.id }, 'joining the room failed');
        ws.close(CLOSE_CODES.goingAway, 'Please reconnect');
      });
    // Stamped now, as the request arrived; queued behind the join, so its acceptance or refusal
    // reaches this socket like a reply to its first message.
    if (upgradeAnswer !== null) this.answerInUpgrade(client, room, upgradeAnswer);
  }

  /** Token bucket: false when the client has used up its message allowance. */
  private withinRate(client: Client): boolean {
    const now = Date.now();
    client.messageTokens = refilledTokens(client.messageTokens, client.tokensRefilledAtMs, now, MAX_CLIENT_MESSAGES_PER_SECOND, MAX_CLIENT_MESSAGE_BURST);
    client.tokensRefilledAtMs = now;
    if (client.messageTokens < 1) return false;
    client.messageTokens -= 1;
    return true;
  }

  private heardFrom(client: Client): void {
    const nowMs = Date.now();
    client.link.heard(nowMs, client.heardAtMs);
    client.heardAtMs = nowMs;
    client.pingSentAtMs = null;
  }

  /**
   * The pick carried by the upgrade request (`answer`, docs/REALTIME.md): taken exactly as if it
   * were the socket's first message, arriving with the request (the same parser, rate limit, player
   * and credit: a new socket's allowance is its cut-off). Anything else in it is answered with
   * an error frame and the socket stays open, as for a bad message: a bad pick must not cost the
   * phone its connection.
   */
  private answerInUpgrade(client: Client, room: RoomPort, raw: string): void {
    if (raw.length > MAX_UPGRADE_ANSWER_CHARS) {
      this.deps.hub.sendTo(client, errorMessage(ERROR_CODES.invalidMessage, `The answer parameter must be at most ${MAX_UPGRADE_ANSWER_CHARS} characters`));
      return;
    }
    const parsed = parseClientMessage(raw, client.role);
    if (parsed.ok && parsed.message.type !== 'submit_answer') {
      this.deps.hub.sendTo(client, errorMessage(ERROR_CODES.invalidMessage, 'The answer parameter carries a submit_answer message only'));
      return;
    }
    this.withinRate(client);
    this.handle(client, room, parsed, client.heardAtMs);
  }

  /**
   * A pick sent over plain HTTP by a phone whose socket is down or silent (DESIGN §14,
   * docs/REALTIME.md): a browser dials one WebSocket to a host at a time but opens several
   * requests at once, so after a loss of signal the first handshake through carries the pick.
   * Checked as a player's upgrade is (token, kick, session), limited as a socket's messages are,
   * credited as a pick on a new socket is (its allowance: the time since the server last heard
   * from that player), and stamped once checked, as the pick in an upgrade request is. The
   * engine's acceptance goes to the player's sockets; its replies to this request (a refusal, a
   * resend's repeat) have no socket and are dropped: the phone learns a refusal from question_end.
   */
  async answerOverHttp(request: PlayerAnswerBody): Promise<HttpAnswerOutcome> {
    const arrivedAtMs = Date.now();
    if (this.closing) return { status: 503, message: 'The server is restarting' };
    const { sessionId, playerId, playerToken, answer } = request;
    const key = `${sessionId} ${playerId}`;
    // A player already over the limit is refused before any lookup; buckets are made only for
    // proven players, so requests with made-up ids cannot grow the map.
    if ((this.refilledBucket(key, arrivedAtMs)?.tokens ?? 1) < 1) return { status: 429, message: 'Too many answers' };
    let auth: ConnectionAuth;
    try {
      auth = await authenticateConnection(new URLSearchParams({ type: 'player', sessionId, playerId, playerToken }), this.deps);
    } catch (err) {
      this.deps.log.error({ err }, 'http answer authentication failed');
      return { status: 503, message: 'Server error, please retry' };
    }
    if (!auth.ok) return { status: STATUS_OF_CLOSE[auth.code] ?? 503, message: auth.reason };
    const bucket = this.refilledBucket(key, arrivedAtMs) ?? { tokens: MAX_CLIENT_MESSAGE_BURST, atMs: arrivedAtMs };
    if (bucket.tokens < 1) return { status: 429, message: 'Too many answers' };
    bucket.tokens -= 1;
    this.httpBuckets.set(key, bucket);
    let room: RoomPort | null;
    try {
      room = await this.deps.rooms.acquire(sessionId);
    } catch (err) {
      // Loading the game failed (storage down): the phone tries again, as its socket does.
      this.deps.log.error({ err, sessionId }, 'http answer: the room could not be loaded');
      return { status: 503, message: 'Server error, please retry' };
    }
    if (!room) return { status: 404, message: 'Session not found' };
    let allowanceMs: number | undefined;
    if (this.deps.measureLinks !== false) {
      // As a new socket's link would measure it; the socket the phone gave up on is usually still
      // open here (its stall carries over), and its entry stays for the socket that follows.
      const link = new LinkDelay();
      const [previous] = this.deps.hub.playerClients(sessionId, playerId);
      this.creditCutOff(link, sessionId, playerId, arrivedAtMs, previous?.link, false);
      allowanceMs = link.allowanceMs(arrivedAtMs, arrivedAtMs);
    }
    room.dispatch(answerEvent(`h${this.nextConnectionId++}`, playerId, answer, allowanceMs));
    room.release();
    return { status: 202 };
  }

  /** A player's bucket of HTTP picks refilled to now (as a socket's, `withinRate`); undefined when it has none. */
  private refilledBucket(key: string, nowMs: number): { tokens: number; atMs: number } | undefined {
    if (nowMs - this.httpBucketsSweptAtMs > HTTP_BUCKET_IDLE_MS) {
      this.httpBucketsSweptAtMs = nowMs;
      for (const [k, bucket] of this.httpBuckets) if (nowMs - bucket.atMs > HTTP_BUCKET_IDLE_MS) this.httpBuckets.delete(k);
    }
    const bucket = this.httpBuckets.get(key);
    if (!bucket) return undefined;
    bucket.tokens = refilledTokens(bucket.tokens, bucket.atMs, nowMs, MAX_CLIENT_MESSAGES_PER_SECOND, MAX_CLIENT_MESSAGE_BURST);
    bucket.atMs = nowMs;
    return bucket;
  }

  /**
   * Credits `link` with the time its player was cut off until `nowMs` (link-delay.ts): from the
   * last word of the player's other sockets, open or recently gone; `previous`, the open one whose
   * stall carries over. `take`: the gone sockets' entry is used up (a new socket takes it).
   */
  private creditCutOff(link: LinkDelay, sessionId: string, playerId: string, nowMs: number, previous: LinkDelay | undefined, take: boolean): void {
    const lastHeardAtMs = this.cutOffs.lastHeard(this.deps.hub, sessionId, playerId, take);
    if (lastHeardAtMs !== null) link.cutOff(nowMs, lastHeardAtMs, previous);
  }

  private onMessage(client: Client, room: RoomPort, data: RawData, isBinary: boolean): void {
    // Before it is heard from: an answer arriving after a stall is credited the silence (link-delay.ts).
    const silentSinceMs = client.heardAtMs;
    this.heardFrom(client);
    if (!this.withinRate(client)) {
      client.socket.close(CLOSE_CODES.tooManyMessages, 'Too many messages');
      return;
    }
    // Binary frames are not part of the protocol: '' makes the parser answer "not valid JSON".
    const raw = isBinary ? '' : Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    this.handle(client, room, parseClientMessage(raw, client.role), silentSinceMs);
  }

  /** `nowMs`: when the message arrived (a socket's message: when its socket was heard from, just now). */
  private handle(client: Client, room: RoomPort, parsed: ReturnType<typeof parseClientMessage>, silentSinceMs: number, nowMs = client.heardAtMs): void {
    if (!parsed.ok) {
      this.deps.hub.sendTo(client, parsed.error);
      return;
    }
    const { message } = parsed;
    let event: EngineEvent;
    switch (message.type) {
      case 'submit_answer':
        event = answerEvent(client.id, client.playerId ?? '', message, this.deps.measureLinks === false ? undefined : client.link.allowanceMs(nowMs, silentSinceMs));
        break;
      case 'ping':
        this.deps.hub.sendTo(client, { type: 'pong', id: message.id, serverTime: Date.now() });
        if (message.rttMs !== undefined) this.deps.datagrams?.consider(client, message.rttMs);
        return;
      case 'datagram_reply': {
        const refused = this.deps.datagrams
          ? this.deps.datagrams.reply(client, message.sdp)
          : errorMessage(ERROR_CODES.invalidMessage, 'Invalid datagram_reply: no datagram offer is waiting for a reply');
        if (refused) this.deps.hub.sendTo(client, refused);
        return;
      }
      case 'question_seen':
        this.deps.datagrams?.seen(client, message.questionId);
        return;
      case 'admin_next_question':
      case 'admin_pause':
        event = { type: message.type, connectionId: client.id };
        break;
      case 'admin_toggle_autorotate':
        event = { type: 'admin_toggle_autorotate', connectionId: client.id, autoRotate: message.autoRotate };
        break;
    }
    room.dispatch(event);
  }

  /**
   * A message that came on a player's datagram path (datagram.ts), taken as a message of the
   * player's socket `client`: the same parser, the same player, the same credit. Only a ping
   * (answered on the path), a pick and `question_seen` travel there; the socket's rate limit and silence are left alone (the path
   * has its own limit, and a path heard from says nothing of the socket). Errors go to the socket.
   */
  receiveDatagram(client: Client, raw: string): void {
    const room = this.roomOf.get(client);
    if (!room || this.closing) return;
    // A packed pick names its question by the start of its id: the open one, if it matches.
    const parsed = parseDatagramMessage(raw, client.role, (reference) => this.deps.datagrams?.questionIdFor(client.sessionId, reference) ?? reference);
    if (!parsed.ok) {
      this.deps.hub.sendTo(client, parsed.error);
      return;
    }
    const { message } = parsed;
    if (message.type === 'submit_answer') this.handle(client, room, parsed, client.heardAtMs, Date.now());
    else if (message.type !== 'ping' && message.type !== 'question_seen') {
      this.deps.hub.sendTo(client, errorMessage(ERROR_CODES.invalidMessage, 'Only ping, submit_answer and question_seen travel on the datagram path'));
      return;
    }
    // After the pick is dispatched: a question the phone lacks goes again, its ping is answered.
    this.deps.datagrams?.heard(client, message);
  }

  get connectionCount(): number {
    return this.sockets.size;
  }

  /** Refuses new upgrades; then closes open sockets with 1001 (clients reconnect elsewhere or later). */
  stopAccepting(): void {
    this.closing = true;
    this.deps.httpServer.off('upgrade', this.onUpgrade);
  }

  async closeSockets(graceMs = 1_000): Promise<void> {
    for (const ws of this.sockets) ws.close(CLOSE_CODES.goingAway, 'Server restarting');
    const deadline = Date.now() + graceMs;
    while (this.sockets.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
