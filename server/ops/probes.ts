/**
 * The readiness probes of the dependencies Marquee has today. The multi-instance mode registers
 * its own 'redis' probe (on the connection it already holds), replacing the one made here.
 */
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { MediaStore } from '../media/store.js';
import type { Store } from '../storage/store.js';
import type { ReadinessProbe } from './readiness.js';

/** One round trip to the database; on PostgreSQL it also needs a free pool connection. */
export function databaseProbe(store: Store): ReadinessProbe {
  return () => sql`select 1`.execute(store.db);
}

export function mediaProbe(mediaStore: MediaStore): ReadinessProbe {
  return () => mediaStore.checkReady();
}

/**
 * A PING on a connection of its own. Commands fail at once while the connection is down (no
 * offline queue), and the failure names the connection's last error (e.g. ECONNREFUSED).
 */
export function redisProbe(url: string, timeoutMs: number): { probe: ReadinessProbe; close(): Promise<void> } {
  let lastError: Error | undefined;
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  client.on('error', (err: Error) => {
    lastError = err;
  });
  client.on('ready', () => {
    lastError = undefined;
  });
  let connecting: Promise<void> | undefined = client.connect().catch(() => undefined);
  return {
    probe: async () => {
      // The first probe may come before the first connection attempt ended.
      if (connecting) {
        await connecting;
        connecting = undefined;
      }
      try {
        return await client.ping();
      } catch (err) {
        throw lastError ?? err;
      }
    },
    close: async () => {
      client.disconnect();
    },
  };
}
