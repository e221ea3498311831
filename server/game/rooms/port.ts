/**
 * What the socket endpoint needs from a session's game, whoever runs it. In one process the
 * Room itself is the port; in multi-instance mode (server/transport/cluster/) a port on any instance
 * forwards to the session's owner through Redis and receives its frames back.
 */
import type { ServerMessage } from '../../../protocol/index.js';
import type { EngineEvent } from '../engine/index.js';
import type { RoomMember } from './room.js';

export interface RoomPort {
  readonly sessionId: string;
  /** `join` runs once with the socket's first session_state (an object, or the owner's bytes). */
  connect(member: RoomMember, join: (initial: ServerMessage | Buffer) => void): Promise<void>;
  dispatch(event: EngineEvent): void;
  disconnect(connectionId: string): Promise<void>;
  /** The socket is gone: the port may be dropped. */
  release(): void;
}

export interface RoomDirectory {
  /** The port of a session, held until `release`; null for an unknown session. */
  acquire(sessionId: string): Promise<RoomPort | null>;
}
