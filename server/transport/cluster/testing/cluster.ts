/**
 * In-process clusters for the multi-instance tests: N real servers (HTTP + /ws each) on one
 * PostgreSQL schema and the machine's Redis under a unique key prefix, with short leases.
 */
import { createTestDatabase, type TestDatabase } from '../../../testing/databases.js';
import { TEST_REDIS_URL, dropPrefix, testRedis, uniquePrefix } from '../../../testing/redis.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';
import type { ClusterOptions } from '../node.js';

export interface TestCluster {
  database: TestDatabase;
  prefix: string;
  servers: TestServer[];
  /** The servers that run the session's game now (exactly one when all is well). */
  ownersOf(sessionId: string): TestServer[];
  close(): Promise<void>;
}

export const TEST_LEASE_TTL_MS = 1_500;
export const TEST_SCAN_MS = 200;

/**
 * `redisUrl`: the fault tests reach Redis through a cuttable proxy (proxied-cluster.ts), one for
 * all instances or one each (a list, by instance); `env`: more settings for every instance;
 * `options`: cluster settings the environment has no variable for.
 */
export async function startTestCluster(
  size: number,
  redisUrl: string | string[] = TEST_REDIS_URL,
  env: Record<string, string> = {},
  options: Pick<ClusterOptions, 'livePublishMs'> = {},
): Promise<TestCluster> {
  const database = await createTestDatabase('postgres');
  const prefix = uniquePrefix();
  const servers: TestServer[] = [];
  for (let i = 0; i < size; i++) {
    servers.push(
      await startTestServer({
        database,
        // As behind the load balancer (on this machine): its X-Forwarded-For names the client.
        env: { REDIS_URL: Array.isArray(redisUrl) ? redisUrl[i] : redisUrl, INSTANCE_ID: `node-${i + 1}`, TRUST_PROXY: 'loopback', ...env },
        cluster: { keyPrefix: prefix, leaseTtlMs: TEST_LEASE_TTL_MS, scanMs: TEST_SCAN_MS, ...options },
        realtime: { rehearsalPlayers: 0 },
        // Frozen: the failed-login tests must not see a 1 s wait run out on a loaded machine.
        loginClock: () => 1_700_000_000_000,
      }),
    );
  }
  return {
    database,
    prefix,
    servers,
    ownersOf: (sessionId) => servers.filter((s) => s.server.realtime.cluster?.owner.epochOf(sessionId) !== undefined),
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
      const redis = testRedis();
      await dropPrefix(redis, prefix);
      redis.disconnect();
      await database.drop();
    },
  };
}

/** Polls a condition (no fixed sleeps racing a loaded machine). */
export async function waitUntil(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
