/**
 * The readiness probes of the dependencies Marquee has today. The multi-instance mode registers
 * its own 'redis' probe (on the connection it already holds), replacing the one made here.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { MediaStore } from '../domain/media/store.js';
import type { Store } from '../storage/store.js';
import type { ReadinessProbe } from './readiness.js';

/** Bytes written by the disk check: one filesystem block, which a full disk cannot give. */
const DISK_CHECK_BYTES = 4096;

/**
 * The database is ready when a round trip works (on PostgreSQL that also needs a free pool
 * connection), its data directory takes a write (SQLite: a full disk still answers reads), and no
 * storage fault is current (DESIGN §16: the game's own writes failing, e.g. PostgreSQL out of disk).
 * A fault seen by the game's writes stands until a commit goes through again, except one the
 * checks here can clear: a lost connection that works again, a local disk with room again.
 */
export function databaseProbe(store: Store, dataDir: string | undefined): ReadinessProbe {
  const probeFile = dataDir && store.handle.dialect === 'sqlite' ? path.join(dataDir, '.readyz-probe') : undefined;
  return async () => {
    const { health } = store.handle;
    const fault = health.fault;
    await sql`select 1`.execute(store.db);
    if (probeFile) await checkWritable(probeFile);
    // PostgreSQL's disk is not ours to check: only a commit shows it has room again.
    if (fault && fault.cause === 'disk full' && store.handle.dialect === 'postgres') throw fault.error;
    if (fault) health.recovered();
  };
}

async function checkWritable(file: string): Promise<void> {
  try {
    await fs.writeFile(file, Buffer.alloc(DISK_CHECK_BYTES));
  } finally {
    await fs.rm(file, { force: true });
  }
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
    // Tries again at most 0.5 s apart: /readyz says Redis is back within a second of it (DESIGN §16).
    retryStrategy: (attempt) => Math.min(attempt * 100, 500),
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
