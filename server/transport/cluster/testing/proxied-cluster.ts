/**
 * A test cluster (cluster.ts) whose instances reach Redis through a cuttable proxy
 * (server/testing/cuttable-proxy.ts), for the Redis fault tests: one proxy for all of them, or
 * one each (`perInstance`), so that instances can lose and regain Redis at different moments.
 */
import { CuttableProxy } from '../../../testing/cuttable-proxy.js';
import { TEST_REDIS_URL } from '../../../testing/redis.js';
import { type TestCluster, startTestCluster } from './cluster.js';

export interface ProxiedCluster extends TestCluster {
  /** The first instance's proxy (every instance's, unless each has its own). */
  proxy: CuttableProxy;
  /** By instance: the proxy it reaches Redis through. */
  proxies: CuttableProxy[];
}

export async function startProxiedCluster(size: number, { perInstance = false } = {}): Promise<ProxiedCluster> {
  const shared = perInstance ? null : await CuttableProxy.start(TEST_REDIS_URL);
  const proxies: CuttableProxy[] = [];
  for (let i = 0; i < size; i++) proxies.push(shared ?? (await CuttableProxy.start(TEST_REDIS_URL)));
  const cluster = await startTestCluster(
    size,
    proxies.map((p) => p.url(TEST_REDIS_URL)),
  );
  const distinct = [...new Set(proxies)];
  return {
    ...cluster,
    proxy: proxies[0],
    proxies,
    close: async () => {
      await Promise.all(distinct.map((p) => p.restore()));
      await cluster.close();
      await Promise.all(distinct.map((p) => p.close()));
    },
  };
}
