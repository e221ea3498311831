/**
 * Wires the live game: storage → rooms (one per session in play) → hub (fan-out) → sockets.
 * server.ts starts it once the HTTP server listens and closes it first on shutdown.
 */
import type { Server as HttpServer } from 'node:http';
import { CLOSE_CODES } from '../../protocol/index.js';
import { toPublicSessionInfo } from '../sessions/public-view.js';
import type { AdminAuth } from '../auth/admin-auth.js';
import { type Clock, DbRoomStorage, type LifecycleSource, type RoomLog, RoomManager, type RoomStorage, systemClock } from '../rooms/index.js';
import type { Store } from '../storage/store.js';
import { DEFAULT_HEARTBEAT, type HeartbeatOptions, startHeartbeat } from './heartbeat.js';
import { Hub } from './hub.js';
import { SocketServer } from './socket-server.js';

export interface RealtimeOptions {
  /** The game clock (tests pass a FakeClock). */
  clock?: Clock;
  heartbeat?: Partial<HeartbeatOptions>;
  /** Write-behind window for answers. */
  answerFlushMs?: number;
  /** Defaults to the database behind `store`. */
  storage?: RoomStorage;
}

export interface RealtimeDeps {
  httpServer: HttpServer;
  store: Store;
  adminAuth: AdminAuth;
  lifecycle: LifecycleSource;
  log: RoomLog;
}

export interface Realtime {
  rooms: RoomManager;
  hub: Hub;
  sockets: SocketServer;
  close(): Promise<void>;
}

export async function startRealtime(deps: RealtimeDeps, options: RealtimeOptions = {}): Promise<Realtime> {
  const hub = new Hub();
  const rooms = new RoomManager({
    storage: options.storage ?? new DbRoomStorage(deps.store),
    broadcaster: hub,
    clock: options.clock ?? systemClock,
    log: deps.log,
    lifecycle: deps.lifecycle,
    answerFlushMs: options.answerFlushMs,
  });
  await rooms.start();
  const sockets = new SocketServer({ httpServer: deps.httpServer, hub, rooms, store: deps.store, adminAuth: deps.adminAuth, log: deps.log });
  const onDeleted = (sessionId: string) => hub.closeSession(sessionId, CLOSE_CODES.sessionGone, 'Session deleted');
  deps.lifecycle.on('deleted', onDeleted);
  // Only sessions with open sockets are looked up: edits of sessions nobody watches cost nothing.
  const onUpdated = (sessionId: string) => {
    if (!hub.hasSession(sessionId)) return;
    deps.store.sessions
      .get(sessionId)
      .then((session) => session && hub.toSession(sessionId, 'all', { type: 'session_info', session: toPublicSessionInfo(session) }))
      .catch((err) => deps.log.warn({ err, sessionId }, 'could not announce a session update'));
  };
  deps.lifecycle.on('updated', onUpdated);
  const stopHeartbeat = startHeartbeat(hub, {
    ...DEFAULT_HEARTBEAT,
    ...options.heartbeat,
    onSlowConsumer: (client) => deps.log.warn({ connectionId: client.id, sessionId: client.sessionId }, 'closing a slow websocket'),
  });

  return {
    rooms,
    hub,
    sockets,
    close: async () => {
      deps.lifecycle.off('deleted', onDeleted);
      deps.lifecycle.off('updated', onUpdated);
      sockets.stopAccepting();
      stopHeartbeat();
      // Rooms first: sockets closing afterwards must not look like players leaving (which could
      // end a question early in the stored game). Live sessions resume on the next start.
      await rooms.close();
      await sockets.closeSockets();
    },
  };
}
