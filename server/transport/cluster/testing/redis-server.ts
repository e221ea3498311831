/**
 * A redis-server of a test's own on a free port (no persistence), to kill and restart at will:
 * the machine's shared Redis, which other suites use at the same time, is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../../testing/child-server.js';
import { createTestDatabase, type TestDatabase } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';
import { TEST_LEASE_TTL_MS, TEST_SCAN_MS, waitUntil } from './cluster.js';

export class OwnRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.restart();
    return redis;
  }

  /** Starts it (again, empty) on the same port and waits until it answers. */
  async restart(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitUntil('redis-server answers', async () => {
      const probe = new Redis({ port: this.port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined); // refused until it listens
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    });
  }

  /** SIGKILL: gone at once, with everything it held; resolves once the process has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

export interface OwnRedisCluster {
  redis: OwnRedis;
  database: TestDatabase;
  servers: TestServer[];
  close(): Promise<void>;
}

/** In-process instances, one per name, on a PostgreSQL schema and a Redis of their own. */
export async function startOwnRedisCluster(names: string[]): Promise<OwnRedisCluster> {
  const redis = await OwnRedis.start();
  const database = await createTestDatabase('postgres');
  const servers: TestServer[] = [];
  for (const name of names) {
    servers.push(
      await startTestServer({
        database,
        env: { REDIS_URL: redis.url, INSTANCE_ID: name },
        cluster: { leaseTtlMs: TEST_LEASE_TTL_MS, scanMs: TEST_SCAN_MS },
        realtime: { rehearsalPlayers: 0 },
      }),
    );
  }
  return {
    redis,
    database,
    servers,
    close: async () => {
      for (const s of servers) await s.close();
      await redis.kill();
      await database.drop();
    },
  };
}
