/**
 * What the owner (owner.ts) keeps per session it owns, and the few helpers its parts share
 * (the inbox consumer, inbox.ts; the scan's upkeep, owner-upkeep.ts).
 */
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { ClientRole } from '../../../protocol/index.js';
import type { Clock, Room, RoomLog, RoomManager } from '../../game/rooms/index.js';
import type { Database } from '../../storage/schema.js';
import type { ClusterKeys } from './keys.js';
import type { HeldLease } from './lease.js';
import type { RelayWatch } from './relay-hold.js';
import type { PlayerRoutes } from './routes.js';
import type { SessionLeases } from './session-leases.js';

/** How long a shutdown waits for Redis (it may be the thing that is down). */
export const CLOSE_WAIT_MS = 2_000;

/** The promise, or undefined once `ms` passed: Redis commands wait through outages, shutdowns must not. */
export function atMost<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, elapsed]).finally(() => clearTimeout(timer));
}

export interface Owned {
  sessionId: string;
  lease: HeldLease;
  epoch: number;
  room: Room | null;
  /** Sockets in the room, by cluster-wide connection id. */
  members: Map<string, { role: ClientRole }>;
  /** Which instances hold each player's sockets: a player's own frames go only there. */
  routes: PlayerRoutes;
  /** Sockets on this instance whose messages reach the room directly (inbox.ts, applyDirect). */
  direct: Set<string>;
  /** What has come in from each other instance: the reveal waits for it after a Redis outage (relay-hold.ts). */
  relay: RelayWatch;
  /** Being let go: nothing more is read or published. */
  stopping: boolean;
  /** Gone: writes are refused too. */
  stopped: boolean;
  unusedSinceMs: number | null;
  /** Redis clock minus this instance's clock, to stamp entries by their Redis time. */
  clockOffsetMs: number;
}

export interface OwnerDeps {
  instanceId: string;
  keys: ClusterKeys;
  redis: Redis;
  leases: SessionLeases;
  db: Kysely<Database>;
  /** The rooms of owned sessions (a RoomManager that resumes nothing by itself). */
  rooms: RoomManager;
  clock: Clock;
  log: RoomLog;
  /** Sessions with sockets on this instance: they need an owner even when not live. */
  localSessions: () => Iterable<string>;
  scanMs: number;
}
