import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';
import { parseRegistrationLimit, type RegistrationLimit } from './domain/players/rate-limit.js';

/**
 * The one validated configuration object, built from the environment (DESIGN §1).
 * A bad value stops the start with a message naming the variable.
 */
const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const urlWithProtocols = (protocols: string[]) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a URL starting with ${protocols.join(' or ')}//`);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).optional(),
  // Interpolated into the connection's search_path: a plain identifier only.
  DATABASE_SCHEMA: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain schema name (letters, digits, _)').optional(),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:']).optional(),
  ADMIN_USERNAME: z.string().trim().min(1).max(100).default('admin'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  PUBLIC_URL: urlWithProtocols(['http:', 'https:']).optional(),
  SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  JOIN_LINK_TTL_SECONDS: z.coerce.number().int().min(60).max(604800).default(600),
  REQUIRE_SIGNED_JOIN: booleanFromEnv.default(true),
  TRUST_PROXY: z.string().optional().superRefine((value, ctx) => {
    const parsed = parseTrustProxy(value);
    if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
  }),
  // Player registrations per address (DESIGN §15): "burst,perSecond", or "off" for load tests.
  REGISTRATION_LIMIT: z
    .string()
    .default('100,2')
    .transform((v, ctx) => {
      const limit = parseRegistrationLimit(v);
      if (limit === undefined) ctx.addIssue({ code: 'custom', message: 'must be "burst,perSecond" (e.g. 100,2) or off' });
      return limit ?? null;
    }),
  DEMO_CONTENT: booleanFromEnv.default(true),
  // Media storage (the media issue): local disk by default, S3 when S3_BUCKET is set.
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: urlWithProtocols(['http:', 'https:']).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  // Operations (DESIGN §12): /metrics wants this bearer token when it is set.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Multi-instance mode (DESIGN §9): a name for this instance in logs and Redis; random when unset.
  INSTANCE_ID: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores').optional(),
  // Prefix of Marquee's Redis keys and channels: several deployments can share one Redis.
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 letters, digits or . _ : -').default('marquee'),
  // The datagram path for slow phones (docs/REALTIME.md): one UDP port per instance, "off" for none.
  RTC_UDP_PORT: z.union([z.literal('off'), z.coerce.number().int().min(1).max(65535)], { error: 'must be a UDP port (1-65535) or off' }).optional(),
  RTC_ADDRESS: z.string().min(1).optional(),
  RTC_MIN_RTT_MS: z.coerce.number().int().min(0).max(60000).default(300),
  RTC_MAX_PEERS: z.coerce.number().int().min(0).max(100000).default(500),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema to work in (default: the connection's, normally public). */
  databaseSchema: string | undefined;
  redisUrl: string | undefined;
  adminUsername: string;
  adminPassword: string | undefined;
  publicUrl: string | undefined;
  secret: string | undefined;
  joinLinkTtlSeconds: number;
  requireSignedJoin: boolean;
  /** Which proxies' X-Forwarded-* headers are believed (DESIGN §15); false: none. */
  trustProxy: TrustProxy;
  /** Successful player registrations per address; null: unlimited (REGISTRATION_LIMIT=off). */
  registrationLimit: RegistrationLimit | null;
  /** Create the "Marquee Demo" show on the first start with an empty database (DESIGN §11). */
  demoContent: boolean;
  s3:
    | {
        bucket: string;
        region: string;
        endpoint: string | undefined;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      }
    | undefined;
  metricsToken: string | undefined;
  logLevel: string;
  /** Multi-instance mode: this instance's name (REDIS_URL set). */
  instanceId: string | undefined;
  redisKeyPrefix: string;
  /**
   * The datagram path (docs/REALTIME.md): null when off. `udpPort` null: the HTTP port's number;
   * `address` null: every interface (HOST 0.0.0.0) or HOST.
   */
  datagram: { udpPort: number | null; address: string | null; minRttMs: number; maxPeers: number } | null;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as operators expect from `FOO= npm start`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.REDIS_URL && !e.DATABASE_URL) {
    // Several instances must share one database: each would otherwise run its own SQLite file.
    throw new ConfigError(
      'Invalid configuration:\n  REDIS_URL: multi-instance mode needs DATABASE_URL (PostgreSQL) too; ' +
        'the instances share the database, and a SQLite file belongs to one process. ' +
        'Set DATABASE_URL=postgres://..., or unset REDIS_URL to run one instance on SQLite.',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    redisUrl: e.REDIS_URL,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    secret: e.SECRET,
    joinLinkTtlSeconds: e.JOIN_LINK_TTL_SECONDS,
    requireSignedJoin: e.REQUIRE_SIGNED_JOIN,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    registrationLimit: e.REGISTRATION_LIMIT,
    demoContent: e.DEMO_CONTENT,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    instanceId: e.INSTANCE_ID,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    datagram:
      e.RTC_UDP_PORT === 'off' || e.RTC_MAX_PEERS === 0
        ? null
        : {
            udpPort: e.RTC_UDP_PORT ?? null,
            address: e.RTC_ADDRESS ?? (e.HOST === '0.0.0.0' || e.HOST === '::' ? null : e.HOST),
            minRttMs: e.RTC_MIN_RTT_MS,
            maxPeers: e.RTC_MAX_PEERS,
          },
  };
}

function trustProxyOf(raw: string | undefined): TrustProxy {
  const parsed = parseTrustProxy(raw);
  return 'value' in parsed ? parsed.value : false;
}
