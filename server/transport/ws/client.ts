/**
 * One socket's client as the hub, the socket server and the datagram paths see it (its own module,
 * so those can share it without importing each other).
 */
import type WebSocket from 'ws';
import { type ClientRole, MAX_CLIENT_MESSAGE_BURST } from '../../../protocol/index.js';
import { LinkDelay } from './link-delay.js';

export interface Client {
  /** The connection id the engine uses for replies. */
  readonly id: string;
  readonly sessionId: string;
  readonly role: ClientRole;
  readonly playerId: string | null;
  readonly socket: WebSocket;
  /** When the server last heard from the socket (a message or a pong): the heartbeat pings only silent ones. */
  heardAtMs: number;
  /** The heartbeat's unanswered ping, or null. */
  pingSentAtMs: number | null;
  /** Consecutive backpressure checks that found the send buffer over its bound. */
  overBufferChecks: number;
  /** Token bucket of the incoming message rate limit. */
  messageTokens: number;
  tokensRefilledAtMs: number;
  /** What the server measured of this socket's delay (link-delay.ts): players' answers are credited with it. */
  readonly link: LinkDelay;
}

/**
 * A newly accepted socket's client: every client, the rehearsal's too (rehearsal.ts), is made
 * here, so the hot paths see one object shape and the JIT's compiled code fits them all.
 */
export function newClient(id: string, sessionId: string, role: ClientRole, playerId: string | null, socket: WebSocket, nowMs: number): Client {
  return {
    id,
    sessionId,
    role,
    playerId,
    socket,
    heardAtMs: nowMs,
    pingSentAtMs: null,
    overBufferChecks: 0,
    messageTokens: MAX_CLIENT_MESSAGE_BURST,
    tokensRefilledAtMs: nowMs,
    link: new LinkDelay(),
  };
}
