/**
 * Multi-instance mode (DESIGN §9), wired for one instance: the Redis connections, the rooms this
 * instance owns, the ports of its sockets, the relayed lifecycle, and the write fence.
 * realtime.ts uses it in place of the single-process RoomManager + Hub pairing when REDIS_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { type LivePublisher, startLivePublisher } from './live-publisher.js';
import { type Broadcaster, type Clock, DbRoomStorage, type RoomLog, RoomManager, type RoomStorage } from '../../game/rooms/index.js';
import type { PlayerModeration, SessionLifecycle } from '../../domain/sessions/lifecycle.js';
import type { Store } from '../../storage/store.js';
import type { Hub } from '../ws/hub.js';
import { EdgeRooms, type RelayFrameKind } from './edge.js';
import { ClusterEvents } from './events.js';
import { epochFence } from './fence.js';
import { ClusterKeys } from './keys.js';
import { LeaseClient } from './lease.js';
import { SessionLeases } from './session-leases.js';
import { ClusterOwner } from './owner.js';
import { RedisClock } from './redis-clock.js';
import { relayPublisher } from './relay.js';
import type { PreShowOwnership } from '../../domain/showtimes/ownership.js';

/** The pre-show steps' lease is held longer than a game's: its runner checks less often. */
const PRE_SHOW_LEASE_TTL_MS = 15_000;

/**
 * Pre-shows (DESIGN §13) run on the holder of one cluster-wide lease, so instances do not race for
 * each step. The steps stay exactly-once through their own conditional updates, so while Redis is
 * unreachable every instance may run them (rather than none).
 */
function preShowLease(leases: LeaseClient, key: string, instanceId: string): PreShowOwnership {
  let held = false;
  return {
    instanceId,
    mayRun: async () => {
      try {
        if (held) held = (await leases.renew(key)) !== 'lost';
        if (!held) held = await leases.acquire(key);
        return held;
      } catch {
        return true;
      }
    },
  };
}

export interface ClusterOptions {
  redisUrl: string;
  /** This instance's name (INSTANCE_ID); random when unset. */
  instanceId?: string;
  /** Prefix of every key and channel (tests use their own). */
  keyPrefix?: string;
  /** Lease time-to-live; a dead owner is replaced within about this plus one scan. */
  leaseTtlMs?: number;
  /** How often leases are renewed and free ones looked for. */
  scanMs?: number;
  /** How often this instance's live games are published for the overview (live-publisher.ts; tests only: entries older than its LIVE_STALE_MS are ignored). */
  livePublishMs?: number;
}

export const DEFAULT_LEASE_TTL_MS = 3_000;
export const DEFAULT_SCAN_MS = 500;

export interface ClusterNodeDeps {
  store: Store;
  lifecycle: SessionLifecycle;
  hub: Hub;
  clock: Clock;
  log: RoomLog;
  commitWindowMs?: number;
  /** Wraps the storage and broadcaster of owned rooms (metrics). */
  wrapStorage?: (storage: RoomStorage) => RoomStorage;
  wrapBroadcaster?: (broadcaster: Broadcaster) => Broadcaster;
  /** Counts the frames this instance receives from owners (metrics). */
  countRelayFrame?: (kind: RelayFrameKind, used: boolean) => void;
}

export interface ClusterNode {
  instanceId: string;
  keys: ClusterKeys;
  /** Rooms of the sessions this instance owns. */
  rooms: RoomManager;
  owner: ClusterOwner;
  /** Ports for this instance's sockets. */
  edge: EdgeRooms;
  /** The lifecycle as every instance sees it. */
  events: ClusterEvents;
  /** Who runs the pre-show steps: the holder of their lease. */
  preShowOwnership: PreShowOwnership;
  redis: Redis;
  /** Every instance's live games, for the operator's overview (live-publisher.ts). */
  liveGames: LivePublisher;
  close(): Promise<void>;
}

/**
 * A connection to Redis. Commands wait through a Redis restart instead of failing (the offline
 * queue is kept). Not awaited: an instance starts while Redis is down (readyz says so) and catches
 * up when it is back. Retried at least every 0.5 s: phones on the other instances are back within
 * 2 s of Redis's return (DESIGN §16).
 *
 * The subscriber's channels are subscribed again by the edge (`resubscribe`), not by ioredis:
 * ioredis's own resubscription leaves its promise unhandled, so a connection closed while it was
 * on its way (a shutdown just after Redis came back) rejected it with nobody listening, and
 * Node counts that as a crash (seen in redis-faults.test.ts).
 */
export function connectRedis(url: string, log: RoomLog, name: 'commands' | 'subscriber' | 'lifecycle'): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: (attempt) => Math.min(attempt * 100, 500), autoResubscribe: name !== 'subscriber' });
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) log.warn({ err, connection: name }, 'cluster: Redis connection error');
    down = true;
  });
  redis.on('ready', () => {
    if (down) log.info({ connection: name }, 'cluster: Redis connection back');
    down = false;
  });
  return redis;
}

export async function startClusterNode(options: ClusterOptions, deps: ClusterNodeDeps): Promise<ClusterNode> {
  const instanceId = options.instanceId ?? `i-${randomBytes(4).toString('hex')}`;
  const keys = new ClusterKeys(options.keyPrefix);
  const redis = connectRedis(options.redisUrl, deps.log, 'commands');
  const subscriber = connectRedis(options.redisUrl, deps.log, 'subscriber');
  const ttlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  // The holder names the instance and this start of it: a restarted instance with the same name
  // does not inherit leases of its previous life.
  const leases = new LeaseClient(redis, `${instanceId}:${randomBytes(4).toString('hex')}`, ttlMs);
  const sessionLeases = new SessionLeases(redis, leases.holder, ttlMs, keys.instance(''));

  // The fence and the publisher read the owner (made below) only once games run.
  const fence = epochFence(
    (sessionId) => owner.epochOf(sessionId),
    (sessionId) => owner.fenced(sessionId),
  );
  const storage: RoomStorage = new DbRoomStorage(deps.store, fence);

  const publisher = relayPublisher({
    keys,
    redis,
    log: deps.log,
    // Silent unless this instance owns the session with a lease that has not run out.
    owner: {
      publishEpoch: (sessionId) => owner.mayPublish(sessionId)?.epoch,
      localEpoch: (sessionId) => owner.localEpoch(sessionId),
      instancesOf: (sessionId, playerId) => owner.instancesOf(sessionId, playerId),
    },
    // This instance's own sockets get the frames without Redis (DESIGN §16).
    instanceId,
    local: { deliver: (sessionId, header, frame) => edge.deliverLocal(sessionId, header, frame) },
  });
  const broadcaster = deps.wrapBroadcaster ? deps.wrapBroadcaster(publisher) : publisher;

  const rooms = new RoomManager({
    storage: deps.wrapStorage ? deps.wrapStorage(storage) : storage,
    broadcaster,
    clock: deps.clock,
    log: deps.log,
    commitWindowMs: deps.commitWindowMs,
    resumeLive: false,
    // The reveal waits for answers other instances took in time but Redis could not carry (relay-hold.ts).
    holdReveal: (sessionId, endsAtMs) => owner.holdReveal(sessionId, endsAtMs),
  });
  await rooms.start();

  const owner: ClusterOwner = new ClusterOwner({
    instanceId,
    keys,
    redis,
    leases: sessionLeases,
    db: deps.store.db,
    rooms,
    clock: deps.clock,
    log: deps.log,
    localSessions: () => edge.sessionIds(),
    scanMs: options.scanMs ?? DEFAULT_SCAN_MS,
  });
  owner.publisherFor = () => broadcaster;
  owner.local = { deliver: (sessionId, header, frame) => edge.deliverLocal(sessionId, header, frame) };
  // Client messages are stamped in Redis's clock where they arrive (DESIGN §16).
  const redisClock = new RedisClock(redis, deps.clock);
  const edge: EdgeRooms = new EdgeRooms({
    instanceId, keys, redis, subscriber, hub: deps.hub, store: deps.store, log: deps.log,
    claim: (id) => owner.claim(id), countFrame: deps.countRelayFrame, redisNow: () => redisClock.now(),
    direct: (id, entry) => owner.direct(id, entry), isDirect: (id, c) => owner.isDirect(id, c),
  });
  // Redis back after an outage: owners renew their own leases before anyone takes a session.
  let commandsWereDown = false;
  redis.on('close', () => {
    commandsWereDown = true;
    owner.redisDown();
  });
  redis.on('ready', () => {
    if (!commandsWereDown) return;
    commandsWereDown = false;
    owner.redisBack();
  });

  // Before anything can take a session up here: each one taken is published at once.
  const liveGames = startLivePublisher({ redis, keys, instanceId, rooms, log: deps.log, now: () => redisClock.now() ?? deps.clock.now() }, options.livePublishMs);
  owner.onOwned = () => liveGames.publishSoon();
  const events = new ClusterEvents({ keys, redis, reader: connectRedis(options.redisUrl, deps.log, 'lifecycle'), origin: leases.holder, log: deps.log }, deps.lifecycle);
  events.start();
  const ownerReacts = {
    started: (id: string) => owner.epochOf(id) !== undefined && void rooms.get(id)?.goLive().then(() => liveGames.publishSoon(), () => undefined),
    stopped: (id: string) => owner.epochOf(id) !== undefined && void rooms.get(id)?.stop().catch(() => undefined),
    changed: (id: string) => owner.epochOf(id) !== undefined && void rooms.get(id)?.reloadProgram().catch(() => undefined),
    deleted: (id: string) => void owner.release(id),
    // The host's kick, hide or rename: the owner's room updates the standings every screen sees.
    moderated: (id: string, change: PlayerModeration) =>
      owner.epochOf(id) !== undefined && rooms.get(id)?.dispatch({ type: 'player_moderated', playerId: change.playerId, screenName: change.screenName }),
  };
  events.on('started', (id) => {
    if (!ownerReacts.started(id)) owner.claim(id);
  });
  events.on('stopped', ownerReacts.stopped);
  events.on('changed', ownerReacts.changed);
  events.on('deleted', ownerReacts.deleted);
  events.on('moderated', ownerReacts.moderated);

  // After Redis comes back the channels are subscribed again, then every socket here is announced
  // again (and gets a fresh state).
  let subscriberWasDown = false;
  subscriber.on('close', () => (subscriberWasDown = true));
  subscriber.on('ready', () => {
    if (!subscriberWasDown) return;
    subscriberWasDown = false;
    edge.resubscribe();
    edge.rejoinAll();
  });

  owner.start();
  const node: ClusterNode = {
    instanceId,
    keys,
    rooms,
    owner,
    edge,
    events,
    preShowOwnership: preShowLease(new LeaseClient(redis, leases.holder, PRE_SHOW_LEASE_TTL_MS), keys.lease('pre-shows'), instanceId),
    redis,
    liveGames,
    close: async () => {
      edge.closing = true;
      await liveGames.stop();
      redisClock.close();
      events.close();
      await owner.close();
      await rooms.close();
      subscriber.disconnect();
      redis.disconnect();
    },
  };
  return node;
}
