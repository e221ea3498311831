/**
 * The `cluster` target: three Marquee instances (REDIS_URL mode) on one machine, on a fresh
 * PostgreSQL schema and a redis-server of the bench's own (so its command counts are ours alone).
 * The phones are spread over the three; the admin and display use the first. Server readings
 * (RSS, CPU, event loop) are of the first instance. On a 2-core machine this measures what the
 * relay costs, not capacity.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort, type RunningTarget, type TargetOptions, startTarget } from './targets.js';

export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const INSTANCES = 3;
const instanceId = (i: number) => `bench-${i + 1}`;
/** The instances run with the default key prefix. */
const leaseKey = (sessionId: string) => `marquee:lease:${sessionId}`;
const LEASE_WATCH_MS = 30_000;
const LEASE_POLL_MS = 10;

/** Cumulative counters of the relay: Redis's own (INFO) and the instances' (/metrics). */
export interface RelayCounters {
  /** Calls per Redis command. */
  commands: Record<string, number>;
  /** Bytes Redis sent to its clients (replies and pub/sub deliveries). */
  outputBytes: number;
  /** Frames the instances received from owners (each a pub/sub delivery), and those no socket of the receiving instance needed. */
  frames: FrameCounts;
}

export interface KilledOwner {
  /** Its index in `socketUrls`. */
  instanceIndex: number;
  instanceId: string;
  /** Resolves with the time from the kill until every session it owned had another owner (null: not within 30 s). */
  leaseMs: Promise<number | null>;
}

export interface RunningCluster extends RunningTarget {
  socketUrls: string[];
  relayCounters(): Promise<RelayCounters>;
  /** SIGKILLs the instance owning the first session (the failover step). */
  killOwner(sessionIds: string[]): Promise<KilledOwner>;
}

async function ownRedis(): Promise<{ url: string; process: ChildProcess; client: Redis }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const client = new Redis({ port, maxRetriesPerRequest: null, retryStrategy: (n) => (n > 50 ? null : 100) });
  client.on('error', () => undefined);
  await client.ping();
  return { url: `redis://127.0.0.1:${port}`, process: child, client };
}

interface FrameCounts {
  received: number;
  unused: number;
  /** Frames for one player or one socket that reached an instance holding none of its sockets. */
  unusedPersonal: number;
}

/** An instance's `marquee_cluster_relay_frames_total`, from its /metrics. */
async function relayFrames(node: RunningTarget): Promise<FrameCounts> {
  const text = await (await fetch(`${node.baseUrl}/metrics`)).text();
  const counts: FrameCounts = { received: 0, unused: 0, unusedPersonal: 0 };
  for (const [, frame, use, value] of text.matchAll(/^marquee_cluster_relay_frames_total\{frame="(\w+)",use="(\w+)"\} (\d+)/gm)) {
    counts.received += Number(value);
    if (use !== 'unused') continue;
    counts.unused += Number(value);
    if (frame === 'player' || frame === 'connection') counts.unusedPersonal += Number(value);
  }
  return counts;
}

/**
 * `redisVia`: the outage scenario puts a cuttable proxy between the instances and Redis; it gets
 * the bench Redis's URL and returns the one the instances use.
 */
export async function startCluster(options: TargetOptions, redisVia: (url: string) => Promise<string> = async (url) => url): Promise<RunningCluster> {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const redis = await ownRedis();
  const redisUrl = await redisVia(redis.url);
  const nodes: RunningTarget[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    redis.client.disconnect();
    redis.process.kill('SIGKILL');
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  };
  try {
    // One at a time: the first migrates the schema.
    for (let i = 0; i < INSTANCES; i++) {
      nodes.push(
        await startTarget('cluster', {
          ...options,
          label: `${options.label}-node${i + 1}`,
          env: { DATABASE_URL: BENCH_DATABASE_URL, DATABASE_SCHEMA: schema, REDIS_URL: redisUrl, INSTANCE_ID: instanceId(i) },
        }),
      );
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const [first] = nodes;
  const holderOf = async (sessionId: string) => (await redis.client.get(leaseKey(sessionId)))?.split(':')[0] ?? null;
  const killOwner = async (sessionIds: string[]): Promise<KilledOwner> => {
    const owner = await holderOf(sessionIds[0]);
    const index = nodes.findIndex((_, i) => instanceId(i) === owner);
    if (index < 0) throw new Error(`no instance owns session ${sessionIds[0]} (lease holder: ${owner})`);
    const owned = (await Promise.all(sessionIds.map(async (id) => ((await holderOf(id)) === owner ? id : null)))).filter((id) => id !== null);
    const killedAt = performance.now();
    void nodes[index].kill('SIGKILL');
    // Polled from here, on the bench's own Redis: the time until every game of the dead instance has a new owner.
    const leaseMs = (async () => {
      while (performance.now() - killedAt < LEASE_WATCH_MS) {
        const holders = await Promise.all(owned.map(holderOf));
        if (holders.every((h) => h !== null && h !== owner)) return Math.round(performance.now() - killedAt);
        await new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS));
      }
      return null;
    })();
    return { instanceIndex: index, instanceId: owner!, leaseMs };
  };
  return {
    ...first,
    socketUrls: nodes.map((n) => n.baseUrl),
    stop,
    killOwner,
    relayCounters: async () => {
      const [commandstats, stats, frames] = await Promise.all([redis.client.info('commandstats'), redis.client.info('stats'), Promise.all(nodes.map(relayFrames))]);
      const commands: Record<string, number> = {};
      for (const match of commandstats.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) commands[match[1]] = Number(match[2]);
      return {
        commands,
        outputBytes: Number(/^total_net_output_bytes:(\d+)/m.exec(stats)?.[1] ?? Number.NaN),
        frames: {
          received: frames.reduce((sum, f) => sum + f.received, 0),
          unused: frames.reduce((sum, f) => sum + f.unused, 0),
          unusedPersonal: frames.reduce((sum, f) => sum + f.unusedPersonal, 0),
        },
      };
    },
  };
}
