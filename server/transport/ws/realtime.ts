/**
 * Wires the live game: storage → rooms (one per session in play) → hub (fan-out) → sockets.
 * server.ts starts it just before the HTTP server listens and closes it first on shutdown.
 */
import type { Server as HttpServer } from 'node:http';
import { CLOSE_CODES, REMOVED_BY_HOST } from '../../../protocol/index.js';
import { toPublicSessionInfo } from '../../domain/sessions/public-view.js';
import type { AdminAuth } from '../../domain/auth/admin-auth.js';
import { type Clock, DbRoomStorage, type LifecycleSource, type RoomLog, RoomManager, type RoomStorage, type RoomSummary, systemClock } from '../../game/rooms/index.js';
import type { Store } from '../../storage/store.js';
import { instrumentedRoomStorage, timedBroadcaster } from '../../ops/instrument.js';
import type { Metrics } from '../../ops/metrics.js';
import { DEFAULT_HEARTBEAT, type HeartbeatOptions, startHeartbeat } from './heartbeat.js';
import { type DatagramOptions, DatagramPaths } from './datagram.js';
import { Hub } from './hub.js';
import { LINK_PROBE_INTERVAL_MS, startLinkProbes } from './link-probe.js';
import { REHEARSAL_PLAYERS } from './rehearsal.js';
import { rehearsals } from './rehearsals.js';
import { SocketServer } from './socket-server.js';
import { AdminSockets } from './admin-sockets.js';
import { KnownPlayers } from './known-players.js';
import { type ClusterNode, type ClusterOptions, startClusterNode } from '../cluster/node.js';
import type { RelayFrameKind } from '../cluster/edge.js';
import type { PlayerModeration, SessionLifecycle } from '../../domain/sessions/lifecycle.js';

export interface RealtimeOptions {
  /** The game clock (tests pass a FakeClock). */
  clock?: Clock;
  heartbeat?: Partial<HeartbeatOptions>;
  /** Group-commit window for answers (group-commit.ts). */
  commitWindowMs?: number;
  /** Defaults to the database behind `store`. */
  storage?: RoomStorage;
  /** Size of the rehearsal run when a session goes live (rehearsal.ts); 0 skips it. */
  rehearsalPlayers?: number;
  /** How often each phone's round trip is probed (link-probe.ts); 0 turns the probes off. */
  linkProbeIntervalMs?: number;
  /** Slow phones' datagram paths (datagram.ts); absent: none. */
  datagram?: DatagramOptions;
}

/** Prize winners announced by "Show on display" (the session lifecycle emits them). */
export interface WinnersSource {
  on(event: 'winners', listener: (sessionId: string, winners: { prize: string; names: string[] }) => void): unknown;
  off(event: 'winners', listener: (sessionId: string, winners: { prize: string; names: string[] }) => void): unknown;
  on(event: 'registrations', listener: (sessionId: string, burst: { refused: number; addresses: number }) => void): unknown;
  off(event: 'registrations', listener: (sessionId: string, burst: { refused: number; addresses: number }) => void): unknown;
}

/** Admin tokens revoked by a logout (the lifecycle emitter carries them, across instances too). */
export interface TokenRevocations {
  on(event: 'adminTokenRevoked', listener: (tokenHash: string) => void): unknown;
  off(event: 'adminTokenRevoked', listener: (tokenHash: string) => void): unknown;
}

export interface RealtimeDeps {
  httpServer: HttpServer;
  store: Store;
  adminAuth: AdminAuth;
  lifecycle: LifecycleSource & WinnersSource & TokenRevocations;
  log: RoomLog;
  /** Multi-instance mode (REDIS_URL): games run by their owner instance, sockets relayed through Redis. */
  cluster?: ClusterOptions;
  /** When given, broadcasts and game writes are measured and the gauges read from here. */
  metrics?: Metrics;
}

export interface Realtime {
  /** The rooms run here: every session in play, or in multi-instance mode the sessions owned here. */
  rooms: RoomManager;
  /** Multi-instance mode only. */
  cluster: ClusterNode | undefined;
  hub: Hub;
  sockets: SocketServer;
  /** Every live game's figures (this instance's rooms, or every instance's in multi-instance mode). */
  liveSummaries: () => Promise<RoomSummary[]>;
  close(): Promise<void>;
}

export async function startRealtime(deps: RealtimeDeps, options: RealtimeOptions = {}): Promise<Realtime> {
  const { metrics } = deps;
  const clock = options.clock ?? systemClock;
  // Phones' delays are measured in wall-clock ms (link-delay.ts): meaningless to a game on a test's fake clock.
  const measureLinks = clock === systemClock;
  const probeIntervalMs = measureLinks ? (options.linkProbeIntervalMs ?? LINK_PROBE_INTERVAL_MS) : 0;
  const hub = new Hub({ measureLinks, probeIntervalMs });
  // Rooms (one instance) and the rehearsal read the same storage.
  const storage = options.storage ?? new DbRoomStorage(deps.store);
  const rehearsal = rehearsals(options.rehearsalPlayers ?? REHEARSAL_PLAYERS, storage, deps.log);
  const cluster = deps.cluster
    ? await startClusterNode(deps.cluster, {
        store: deps.store,
        lifecycle: deps.lifecycle as SessionLifecycle,
        hub,
        clock,
        log: deps.log,
        commitWindowMs: options.commitWindowMs,
        wrapStorage: metrics && ((s) => instrumentedRoomStorage(s, metrics)),
        wrapBroadcaster: metrics && ((b) => timedBroadcaster(b, metrics)),
        countRelayFrame: metrics && relayFrameCounter(metrics),
      })
    : undefined;
  let rooms: RoomManager;
  if (cluster) {
    rooms = cluster.rooms;
  } else {
    rooms = new RoomManager({
      storage: metrics ? instrumentedRoomStorage(storage, metrics) : storage,
      broadcaster: metrics ? timedBroadcaster(hub, metrics) : hub,
      clock,
      log: deps.log,
      lifecycle: deps.lifecycle,
      commitWindowMs: options.commitWindowMs,
    });
    // Before resuming: a resumed live game's next question runs warm too, and the resume's grace
    // for players coming back (DESIGN §8) is not spent rehearsing before sockets are accepted.
    const liveIds = await storage.listLiveSessionIds();
    const live = liveIds.length;
    if (live > 0) await rehearsal.run(liveIds[0]);
    const resumingAtMs = Date.now();
    await rooms.start();
    // With the log's "Server listening" line: how much of the resume's grace went before phones could connect.
    if (live > 0) deps.log.info({ sessions: live, ms: Date.now() - resumingAtMs }, 'resumed the live games');
  }
  // What sockets of this instance must hear: in multi-instance mode, changes made on any instance.
  const events: LifecycleSource & WinnersSource & TokenRevocations = cluster?.events ?? deps.lifecycle;
  deps.lifecycle.on('started', rehearsal.run);
  const adminSockets = new AdminSockets();
  // The socket server (below) takes the paths' messages: `receive` is only called once a path is open.
  const datagrams = options.datagram
    ? new DatagramPaths(options.datagram, {
        log: deps.log,
        signal: (client, message) => hub.sendTo(client, message),
        receive: (client, raw) => sockets.receiveDatagram(client, raw),
        playerClients: (sessionId, playerId) => hub.playerClients(sessionId, playerId),
      })
    : undefined;
  hub.datagrams = datagrams ?? null;
  // Phones let in here may come back while the database is down (DESIGN §16).
  const knownPlayers = new KnownPlayers();
  const sockets = new SocketServer({
    httpServer: deps.httpServer,
    hub,
    rooms: cluster?.edge ?? rooms,
    store: deps.store,
    adminAuth: deps.adminAuth,
    knownPlayers,
    log: deps.log,
    adminSockets,
    measureLinks,
    datagrams,
  });
  // A logout on any instance closes the admin sockets holding that token here (DESIGN §15).
  const onTokenRevoked = (tokenHash: string) => adminSockets.revoke(tokenHash);
  events.on('adminTokenRevoked', onTokenRevoked);
  const onDeleted = (sessionId: string) => hub.closeSession(sessionId, CLOSE_CODES.sessionGone, 'Session deleted');
  events.on('deleted', onDeleted);
  // Only sessions with open sockets are looked up: edits of sessions nobody watches cost nothing.
  const onUpdated = (sessionId: string) => {
    if (!hub.hasSession(sessionId)) return;
    deps.store.sessions
      .get(sessionId)
      .then((session) => session && hub.toSession(sessionId, 'all', { type: 'session_info', session: toPublicSessionInfo(session) }))
      .catch((err) => deps.log.warn({ err, sessionId }, 'could not announce a session update'));
  };
  events.on('updated', onUpdated);
  // Prize winners go to the big screens only: phones and the admin never get the message.
  const onWinners = (sessionId: string, winners: { prize: string; names: string[] }) =>
    hub.toSession(sessionId, 'displays', { type: 'winners', prize: winners.prize, names: winners.names });
  events.on('winners', onWinners);
  // Every instance closes the kicked player's sockets it holds; the owner's room updates the standings.
  const onModerated = (sessionId: string, change: PlayerModeration) => {
    if (change.screenName !== null) return;
    knownPlayers.forget(sessionId, change.playerId);
    hub.closePlayer(sessionId, change.playerId, CLOSE_CODES.removed, REMOVED_BY_HOST);
  };
  events.on('moderated', onModerated);
  // A burst of refused registrations: one line in the admins' Live Controls.
  const onRegistrations = (sessionId: string, burst: { refused: number; addresses: number }) =>
    hub.toSession(sessionId, 'admins', { type: 'registration_burst', refused: burst.refused, addresses: burst.addresses });
  events.on('registrations', onRegistrations);
  metrics?.observeRealtime({ socketsByRole: () => hub.countByRole(), liveSessionCount: () => rooms.liveCount });
  const stopProbes = startLinkProbes(hub, probeIntervalMs);
  const stopHeartbeat = startHeartbeat(hub, {
    ...DEFAULT_HEARTBEAT,
    ...options.heartbeat,
    onSlowConsumer: (client) => deps.log.warn({ connectionId: client.id, sessionId: client.sessionId }, 'closing a slow websocket'),
  });

  return {
    rooms,
    cluster,
    hub,
    sockets,
    liveSummaries: cluster ? () => cluster.liveGames.read() : async () => rooms.summaries(),
    close: async () => {
      metrics?.observeRealtime(undefined);
      events.off('deleted', onDeleted);
      events.off('updated', onUpdated);
      events.off('winners', onWinners);
      events.off('adminTokenRevoked', onTokenRevoked);
      events.off('moderated', onModerated);
      events.off('registrations', onRegistrations);
      deps.lifecycle.off('started', rehearsal.run);
      await rehearsal.idle();
      sockets.stopAccepting();
      stopHeartbeat();
      stopProbes();
      // Rooms first: sockets closing afterwards must not look like players leaving (which could
      // end a question early in the stored game). Live sessions resume on the next start.
      if (cluster) await cluster.close();
      else await rooms.close();
      datagrams?.closeAll();
      await sockets.closeSockets();
    },
  };
}

/** The label values bound once: the relay counts every frame it receives. */
function relayFrameCounter(metrics: Metrics): (kind: RelayFrameKind, used: boolean) => void {
  const counters = Object.fromEntries(
    (['broadcast', 'player', 'connection', 'owner'] as const).map((kind) => [kind, { used: metrics.relayFrames.labels(kind, 'used'), unused: metrics.relayFrames.labels(kind, 'unused') }]),
  ) as Record<RelayFrameKind, { used: { inc(): void }; unused: { inc(): void } }>;
  return (kind, used) => (used ? counters[kind].used : counters[kind].unused).inc();
}
