/**
 * A test cluster (cluster.ts) whose instances reach Redis through a cuttable proxy
 * (server/testing/cuttable-proxy.ts), for the Redis fault tests.
 */
import { CuttableProxy } from '../../../testing/cuttable-proxy.js';
import { TEST_REDIS_URL } from '../../../testing/redis.js';
import { type TestCluster, startTestCluster } from './cluster.js';

export interface ProxiedCluster extends TestCluster {
  proxy: CuttableProxy;
}

export async function startProxiedCluster(size: number): Promise<ProxiedCluster> {
  const proxy = await CuttableProxy.start(TEST_REDIS_URL);
  const cluster = await startTestCluster(size, proxy.url(TEST_REDIS_URL));
  return {
    ...cluster,
    proxy,
    close: async () => {
      await proxy.restore();
      await cluster.close();
      await proxy.close();
    },
  };
}
