import { randomBytes } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import { AdminAuth } from './domain/auth/admin-auth.js';
import { LoginLimiter } from './domain/auth/login-limiter.js';
import { LoginDevices } from './domain/auth/login-device.js';
import type { Config } from './config.js';
import { buildApp } from './transport/http/app.js';
import { mediaAdminRouteModules, mediaPublicRouteModules } from './transport/http/media/index.js';
import { createMediaStore } from './domain/media/create-store.js';
import type { App, AppDeps, RouteModule } from './transport/http/context.js';
import { JoinLinks } from './domain/sessions/join-links.js';
import { DisplayKeys } from './domain/sessions/display-keys.js';
import { SessionLifecycle } from './domain/sessions/lifecycle.js';
import { startScheduler } from './domain/sessions/scheduler.js';
import { singleInstanceOwnership, type PreShowOwnership } from './domain/showtimes/ownership.js';
import { PreShowRunner } from './domain/showtimes/runner.js';
import { openStore, type Store } from './storage/store.js';
import { ensureDemoContent, findDemoSession } from './domain/demo/create-demo.js';
import { Metrics } from './ops/metrics.js';
import { databaseProbe, mediaProbe, redisProbe } from './ops/probes.js';
import { READINESS_TIMEOUT_MS, Readiness } from './ops/readiness.js';
import { startRealtime, type Realtime, type RealtimeOptions } from './transport/ws/realtime.js';
import { LiveGames } from './domain/sessions/live-games.js';
import { PlayerAnswers } from './transport/http/players/player-answers.js';
import type { ClusterOptions } from './transport/cluster/node.js';
import { RedisLoginLimiter } from './transport/cluster/login-limiter.js';
import { RedisRegistrationLimiter } from './transport/cluster/registration-limiter.js';

export interface RunningServer {
  app: App;
  deps: AppDeps;
  /** Base URL reachable from this machine, e.g. http://127.0.0.1:3000 */
  url: string;
  /** The generated bootstrap password, when one was made on this start. */
  generatedAdminPassword: string | undefined;
  /** The demo show while it is still there and has not been played yet (for the start-up message). */
  demoSession: { id: string; title: string; createdNow: boolean } | undefined;
  /** The live game: rooms and the WebSocket at /ws. */
  realtime: Realtime;
  /** Starts and stops each showtime's pre-show (DESIGN §13). */
  preShows: PreShowRunner;
  close(): Promise<void>;
}

export interface StartOptions {
  webDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** PostgreSQL schema (tests); overrides DATABASE_SCHEMA. */
  pgSchema?: string;
  /** Extra modules (media, WebSocket) wired by later parts. */
  adminRoutes?: RouteModule[];
  publicRoutes?: RouteModule[];
  /** The live game's clock and socket limits (tests drive games on a fake clock). */
  realtime?: RealtimeOptions;
  /** Multi-instance tuning (tests: their own key prefix, short leases); used when REDIS_URL is set. */
  cluster?: Omit<ClusterOptions, 'redisUrl'>;
  /** The pre-show scheduler's clock, check interval and ownership (tests move the clock; cluster mode brings its lease). */
  preShows?: { clock?: { now(): number }; intervalMs?: number; ownership?: PreShowOwnership };
  /** The login limiter's clock (tests freeze it, so a wait cannot run out on a slow machine). */
  loginClock?: () => number;
  /** Called after the HTTP server listens. */
  onListening?: (server: RunningServer) => Promise<(() => Promise<void>) | void>;
}

/**
 * Connections the kernel may hold for us before we accept them (Node's default is 511). After a
 * restart a full house reconnects within a few seconds; while a busy event loop is not accepting,
 * a full queue makes the kernel drop a phone's connection, which then waits a second or more for
 * its TCP retransmission. The kernel caps it at net.core.somaxconn (4096 on current Linux).
 */
export const LISTEN_BACKLOG = 4096;

function listeningPort(server: App['server'], configured: number): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : configured;
}

/** Builds every part from the configuration and starts listening. main.ts and the tests share it. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const store: Store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgSchema: options.pgSchema ?? config.databaseSchema });
  const secret = config.secret ?? (await store.settings.getOrCreate('secret', () => randomBytes(32).toString('base64url')));
  const adminAuth = new AdminAuth(store);
  const generatedAdminPassword = await adminAuth.bootstrap(config.adminUsername, config.adminPassword);
  const demo = await ensureDemoContent(store, config.demoContent);
  const demoSession = await findDemoSession(store, demo);
  const lifecycle = new SessionLifecycle(store);
  const mediaStore = createMediaStore(config, secret);
  const readiness = new Readiness();
  readiness.register('database', databaseProbe(store, config.databaseUrl ? undefined : config.dataDir));
  // A storage fault seen by any query (or storage back) shows on /readyz at once (DESIGN §16).
  store.handle.health.onChange(() => readiness.invalidate());
  readiness.register('media', mediaProbe(mediaStore));
  // Until the multi-instance mode owns a Redis connection (and registers its own probe), one of its own.
  const redis = config.redisUrl ? redisProbe(config.redisUrl, READINESS_TIMEOUT_MS) : undefined;
  if (redis) readiness.register('redis', redis.probe);
  const clusterOptions = config.redisUrl ? { redisUrl: config.redisUrl, instanceId: config.instanceId, keyPrefix: config.redisKeyPrefix, ...options.cluster } : undefined;
  // Multi-instance mode: failed logins counted in Redis, the same for every instance.
  const redisLimiter = clusterOptions ? RedisLoginLimiter.connect(clusterOptions.redisUrl, clusterOptions.keyPrefix ?? 'marquee', options.loginClock) : undefined;
  // …and registrations per address, so a balancer's round robin does not multiply the burst.
  const registrationLimiter =
    clusterOptions && config.registrationLimit
      ? RedisRegistrationLimiter.connect(clusterOptions.redisUrl, clusterOptions.keyPrefix ?? 'marquee', config.registrationLimit)
      : undefined;
  const deps: AppDeps = {
    config,
    store,
    lifecycle,
    adminAuth,
    loginLimiter: redisLimiter ?? new LoginLimiter(options.loginClock),
    registrationLimiter,
    loginDevices: new LoginDevices(secret),
    joinLinks: new JoinLinks(secret, config.joinLinkTtlSeconds),
    displayKeys: new DisplayKeys(secret),
    mediaStore,
    metrics: new Metrics(),
    readiness,
    liveGames: new LiveGames(),
    playerAnswers: new PlayerAnswers(),
    clock: options.preShows?.clock ?? { now: () => Date.now() },
  };
  const app = await buildApp(deps, {
    webDir: options.webDir,
    logger: options.logger,
    adminRoutes: [...mediaAdminRouteModules, ...(options.adminRoutes ?? [])],
    publicRoutes: [...mediaPublicRouteModules, ...(options.publicRoutes ?? [])],
  });
  readiness.setLog(app.log);
  // Rooms subscribe to the lifecycle before the scheduler can start anything. Live games resume
  // and the WebSocket endpoint is attached before the port opens: once the server answers, phones
  // coming back after a restart can connect (and the resume's grace is not spent refusing them).
  // The datagram path's UDP port is the HTTP port's number unless set: read once the port is open.
  const datagram = config.datagram && {
    udpPort: () => config.datagram?.udpPort ?? listeningPort(app.server, config.port),
    address: config.datagram.address,
    minRttMs: config.datagram.minRttMs,
    maxPeers: config.datagram.maxPeers,
  };
  const realtime = await startRealtime(
    { httpServer: app.server, store, adminAuth, lifecycle, log: app.log, metrics: deps.metrics, cluster: clusterOptions },
    { ...(datagram ? { datagram } : {}), ...options.realtime },
  );
  deps.liveGames.attach(realtime.liveSummaries);
  deps.playerAnswers.attach((answer) => realtime.sockets.answerOverHttp(answer));
  try {
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  } catch (err) {
    await realtime.close();
    throw err;
  }
  const port = listeningPort(app.server, config.port);
  const stopScheduler = startScheduler(lifecycle, (err) => app.log.error({ err }, 'scheduled start failed'));
  const preShows = new PreShowRunner({
    store,
    lifecycle,
    clock: deps.clock,
    log: app.log,
    ownership: options.preShows?.ownership ?? realtime.cluster?.preShowOwnership ?? singleInstanceOwnership(),
  });
  const stopPreShows = preShows.startTimer(options.preShows?.intervalMs);

  const running: RunningServer = {
    app,
    deps,
    url: `http://127.0.0.1:${port}`,
    generatedAdminPassword,
    demoSession,
    realtime,
    preShows,
    close: async () => {},
  };
  const closeExtra = options.onListening ? await options.onListening(running) : undefined;
  running.close = async () => {
    stopScheduler();
    await stopPreShows();
    if (closeExtra) await closeExtra();
    await realtime.close();
    await app.close();
    await redis?.close();
    redisLimiter?.close();
    registrationLimiter?.close();
    await store.close();
  };
  return running;
}
