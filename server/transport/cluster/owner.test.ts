/**
 * The ownership scan (owner.ts) against the machine's Redis and a real database, with a room
 * manager whose rooms take longer to load than a lease lives (a busy machine resuming a big game):
 * the lease must be renewed while the room loads, or another instance would take the game over
 * in the middle of the takeover.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Room, RoomLog, RoomManager } from '../../game/rooms/index.js';
import { systemClock } from '../../game/rooms/index.js';
import { createTestDatabase, type TestDatabase } from '../../testing/databases.js';
import { dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { openStore, type Store } from '../../storage/store.js';
import { ClusterKeys } from './keys.js';
import { SessionLeases } from './session-leases.js';
import { ClusterOwner } from './owner.js';
import { waitUntil } from './testing/cluster.js';

const silentLog = { info: () => {}, warn: () => {}, error: () => {} } as unknown as RoomLog;
const LEASE_TTL_MS = 1_000;
const ROOM_LOAD_MS = 3 * LEASE_TTL_MS;

/** Rooms that load slowly and do nothing else. */
function slowRooms(): RoomManager & { loaded: string[] } {
  const loaded: string[] = [];
  const room = { isLive: false, release: () => {}, settled: async () => {}, connect: async () => {}, disconnect: async () => {}, dispatch: () => {}, goLive: async () => {}, stop: async () => {} };
  return {
    loaded,
    acquire: async (sessionId: string) => {
      await new Promise((resolve) => setTimeout(resolve, ROOM_LOAD_MS));
      loaded.push(sessionId);
      return room as unknown as Room;
    },
    evict: async () => {},
  } as unknown as RoomManager & { loaded: string[] };
}

describe('the ownership scan (real Redis)', () => {
  const redis = testRedis();
  const keys = new ClusterKeys(uniquePrefix());
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
  });
  afterAll(async () => {
    await dropPrefix(redis, keys.prefix);
    redis.disconnect();
    await store?.close();
    await database?.drop();
  });

  it('keeps renewing a lease while the room it took loads for longer than the lease lives', { timeout: 20_000 }, async () => {
    const session = await store.sessions.create({ title: 'Slow', auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null }, 'draft');
    const leases = new SessionLeases(redis, 'node-1:a', LEASE_TTL_MS, keys.instance(''));
    const other = new SessionLeases(redis, 'node-2:b', LEASE_TTL_MS, keys.instance(''));
    const key = keys.lease(session.id);
    const rooms = slowRooms();
    const owner = new ClusterOwner({
      instanceId: 'node-1',
      keys,
      redis,
      leases,
      db: store.db,
      rooms,
      clock: systemClock,
      log: silentLog,
      localSessions: () => [session.id],
      scanMs: 100,
    });
    owner.start();
    try {
      await waitUntil('the lease is taken', async () => (await redis.get(key)) === 'node-1:a');
      // While the room loads, the lease must never be free to another instance.
      const seen = new Set<string>();
      while (rooms.loaded.length === 0) {
        seen.add(`${await redis.get(key)} free=${(await other.free([key]))[0]}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect([...seen]).toEqual(['node-1:a free=false']);
      expect(owner.mayPublish(session.id)).toBeTruthy();
      expect(owner.epochOf(session.id)).toBe(1);
    } finally {
      await owner.close();
    }
  });
});
