/**
 * The ownership scan (owner.ts) against the machine's Redis and a real database, with a room
 * manager whose rooms take longer to load than a lease lives (a busy machine resuming a big game):
 * the lease must be renewed while the room loads, or another instance would take the game over
 * in the middle of the takeover.
 */
import type { KyselyPlugin } from 'kysely';
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

/** Rooms that load after `loadMs` and do nothing else. */
function slowRooms(loadMs = ROOM_LOAD_MS): RoomManager & { loaded: string[] } {
  const loaded: string[] = [];
  const room = { isLive: false, release: () => {}, settled: async () => {}, connect: async () => {}, disconnect: async () => {}, dispatch: () => {}, goLive: async () => {}, stop: async () => {} };
  return {
    loaded,
    acquire: async (sessionId: string) => {
      await new Promise((resolve) => setTimeout(resolve, loadMs));
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
  /** Instance node-1's owner, scanning every 100 ms for the one session it has sockets of. */
  const ownerOf = (sessionId: string, leases: SessionLeases, db: Store['db'], rooms: RoomManager) =>
    new ClusterOwner({ instanceId: 'node-1', keys, redis, leases, db, rooms, clock: systemClock, log: silentLog, localSessions: () => [sessionId], scanMs: 100 });

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
    const owner = ownerOf(session.id, leases, store.db, rooms);
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

  it('keeps its leases while the database holds a scan up for longer than a lease lives', { timeout: 20_000 }, async () => {
    const session = await store.sessions.create({ title: 'Busy database', auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null }, 'draft');
    const leases = new SessionLeases(redis, 'node-1:c', LEASE_TTL_MS, keys.instance(''));
    const other = new SessionLeases(redis, 'node-2:d', LEASE_TTL_MS, keys.instance(''));
    const key = keys.lease(session.id);
    // Every query of the owner's waits for the gate once it has run: a slow database (a heavy
    // report, a busy PostgreSQL) under the scan's query of the live sessions.
    let gate: Promise<void> = Promise.resolve();
    const slowDatabase: KyselyPlugin = { transformQuery: (args) => args.node, transformResult: async (args) => (await gate, args.result) };
    const owner = ownerOf(session.id, leases, store.db.withPlugin(slowDatabase), slowRooms(0));
    owner.start();
    try {
      await waitUntil('the session is owned', () => owner.epochOf(session.id) === 1);
      let open = () => {};
      gate = new Promise<void>((resolve) => (open = resolve));
      // Held up for three lease lives: the lease must never be free to another instance, and the
      // owner keeps publishing.
      const seen = new Set<string>();
      const until = Date.now() + 3 * LEASE_TTL_MS;
      while (Date.now() < until) {
        seen.add(`${await redis.get(key)} free=${(await other.free([key]))[0]} publishes=${owner.mayPublish(session.id) !== undefined}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      open();
      expect([...seen]).toEqual(['node-1:c free=false publishes=true']);
      expect(owner.epochOf(session.id)).toBe(1);
    } finally {
      await owner.close();
    }
  });
});
