/**
 * How a room reaches its sockets. The room only names targets; the transport (server/ws) owns
 * the sockets, serializes each message once and sends the same frame to the whole target set.
 * A multi-instance deployment swaps in an implementation that also relays through Redis.
 */
import type { ServerMessage } from '../../../protocol/index.js';
import type { BroadcastTarget } from '../engine/index.js';

export interface Broadcaster {
  /** One message to every socket of a role group of the session. */
  toSession(sessionId: string, target: BroadcastTarget, message: ServerMessage): void;
  /** To every socket of one player (a second tab locks too). */
  toPlayer(sessionId: string, playerId: string, message: ServerMessage): void;
  /** To one socket, e.g. the error caused by its own message. */
  toConnection(sessionId: string, connectionId: string, message: ServerMessage): void;
}

/** The part of a logger rooms use (pino's, from Fastify, fits). */
export interface RoomLog {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}
