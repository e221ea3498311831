import type { FastifyInstance, FastifyBaseLogger, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AdminAuth } from '../../domain/auth/admin-auth.js';
import type { LoginThrottle } from '../../domain/auth/login-limiter.js';
import type { RegistrationThrottle } from '../../domain/players/rate-limit.js';
import type { LoginDevices } from '../../domain/auth/login-device.js';
import type { Config } from '../../config.js';
import type { SessionLifecycle } from '../../domain/sessions/lifecycle.js';
import type { Store } from '../../storage/store.js';
import type { JoinLinks } from '../../domain/sessions/join-links.js';
import type { DisplayKeys } from '../../domain/sessions/display-keys.js';
import type { MediaStore } from '../../domain/media/store.js';
import type { Metrics } from '../../ops/metrics.js';
import type { Readiness } from '../../ops/readiness.js';
import type { LiveGames } from '../../domain/sessions/live-games.js';
import type { PlayerAnswers } from './players/player-answers.js';

/** What route handlers may use; wired once in main.ts (or a test). */
export interface AppDeps {
  config: Config;
  store: Store;
  lifecycle: SessionLifecycle;
  adminAuth: AdminAuth;
  loginLimiter: LoginThrottle;
  /** Browsers that logged in before, which the login limiter never slows (DESIGN §15). */
  loginDevices: LoginDevices;
  /** The per-address registration limit shared through Redis (multi-instance mode); else one per process. */
  registrationLimiter?: RegistrationThrottle;
  joinLinks: JoinLinks;
  /** The big screens' keys, which let them fetch join links (DESIGN §15). */
  displayKeys: DisplayKeys;
  /** Where media bytes live (local disk or S3), chosen by configuration. */
  mediaStore: MediaStore;
  /** Prometheus metrics of this server (/metrics). */
  metrics: Metrics;
  /** The dependency checks behind /readyz. */
  readiness: Readiness;
  /** Every live game's figures for the operator's overview (GET /api/admin/live). */
  liveGames: LiveGames;
  /** Picks phones send over HTTP while their socket is down (DESIGN §14); the socket server takes them. */
  playerAnswers: PlayerAnswers;
  /** The time showtimes are judged by (past, upcoming, next); the pre-show scheduler reads the same. */
  clock: { now(): number };
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** A route module: registers its routes on the (already authorised, where needed) scope. */
export type RouteModule = (app: App, deps: AppDeps) => void;
