/**
 * Instances of a test cluster that reach Redis through a cuttable proxy (server/testing/
 * cuttable-proxy.ts), for the Redis fault tests: on one PostgreSQL schema and the machine's Redis
 * under a unique key prefix, with short leases.
 */
import { CuttableProxy } from '../../testing/cuttable-proxy.js';
import { createTestDatabase, type TestDatabase } from '../../testing/databases.js';
import { TEST_REDIS_URL, dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { TEST_LEASE_TTL_MS, TEST_SCAN_MS } from './cluster.js';

export interface ProxiedCluster {
  database: TestDatabase;
  proxy: CuttableProxy;
  servers: TestServer[];
  close(): Promise<void>;
}

export async function startProxiedCluster(size: number): Promise<ProxiedCluster> {
  const database = await createTestDatabase('postgres');
  const proxy = await CuttableProxy.start(TEST_REDIS_URL);
  const prefix = uniquePrefix();
  const servers: TestServer[] = [];
  for (let i = 0; i < size; i++) {
    servers.push(
      await startTestServer({
        database,
        env: { REDIS_URL: proxy.url(TEST_REDIS_URL), INSTANCE_ID: `node-${i + 1}` },
        cluster: { keyPrefix: prefix, leaseTtlMs: TEST_LEASE_TTL_MS, scanMs: TEST_SCAN_MS },
        realtime: { rehearsalPlayers: 0 },
      }),
    );
  }
  return {
    database,
    proxy,
    servers,
    close: async () => {
      await proxy.restore();
      await Promise.all(servers.map((s) => s.close()));
      await proxy.close();
      const redis = testRedis();
      await dropPrefix(redis, prefix);
      redis.disconnect();
      await database.drop();
    },
  };
}
