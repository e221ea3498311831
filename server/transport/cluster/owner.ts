/**
 * The sessions this instance owns (DESIGN §9): for each, the lease, the fencing epoch, the room
 * and the consumer of the session's inbox stream.
 *
 * A scan every `scanMs` renews the held leases, takes free leases of sessions that need an owner
 * (live in the database, or with sockets on this instance), drops members whose instance died,
 * and lets go of sessions nobody uses any more. An owner that finds its lease taken, or its write
 * refused by the epoch fence, stops the session's room at once and writes nothing more.
 */
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { ClientRole } from '../../../protocol/index.js';
import type { Broadcaster, Clock, Room, RoomLog, RoomManager } from '../../game/rooms/index.js';
import type { Database } from '../../storage/schema.js';
import { type InboxEntry, encodeOutbox, entryTimeMs, instanceOf, parseInboxEntry } from './envelope.js';
import { takeEpoch } from './fence.js';
import type { ClusterKeys } from './keys.js';
import { InboxReader, type StreamEntries } from './inbox-reader.js';
import { HeldLease, type RenewResult } from './lease.js';
import { redisClockOffset } from './redis-clock.js';
import { PlayerRoutes } from './routes.js';
import type { SessionLeases } from './session-leases.js';

const GROUP = 'owner';
/** How long a shutdown waits for Redis (it may be the thing that is down). */
const CLOSE_WAIT_MS = 2_000;

/** The promise, or undefined once `ms` passed: Redis commands wait through outages, shutdowns must not. */
function atMost<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, elapsed]).finally(() => clearTimeout(timer));
}

/** A session that is not live and has had no sockets for this long is let go. */
const UNUSED_RELEASE_MS = 30_000;
const READ_COUNT = 500;
const READ_BLOCK_MS = 2_000;
/** Inbox entries kept at most (approximate trim): far above what an owner change leaves pending. */
const INBOX_MAX_LEN = 100_000;
/** A session let go keeps its inbox this long (a later owner reads what arrived meanwhile), then Redis drops it. */
const INBOX_IDLE_TTL_MS = 60 * 60 * 1000;

interface Owned {
  sessionId: string;
  lease: HeldLease;
  epoch: number;
  room: Room | null;
  /** Sockets in the room, by cluster-wide connection id. */
  members: Map<string, { role: ClientRole }>;
  /** Which instances hold each player's sockets: a player's own frames go only there. */
  routes: PlayerRoutes;
  /** Being let go: nothing more is read or published. */
  stopping: boolean;
  /** Gone: writes are refused too. */
  stopped: boolean;
  unusedSinceMs: number | null;
  /** Redis clock minus this instance's clock, to stamp entries by their Redis time. */
  clockOffsetMs: number;
}

export interface OwnerDeps {
  instanceId: string;
  keys: ClusterKeys;
  redis: Redis;
  leases: SessionLeases;
  db: Kysely<Database>;
  /** The rooms of owned sessions (a RoomManager that resumes nothing by itself). */
  rooms: RoomManager;
  clock: Clock;
  log: RoomLog;
  /** Sessions with sockets on this instance: they need an owner even when not live. */
  localSessions: () => Iterable<string>;
  scanMs: number;
}

export class ClusterOwner {
  private readonly owned = new Map<string, Owned>();
  private readonly taking = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;
  private closed = false;
  /** Every owned session's inbox, read by one blocked read (inbox-reader.ts). */
  private readonly inbox: InboxReader;

  constructor(private readonly deps: OwnerDeps) {
    this.inbox = new InboxReader({
      connect: () => deps.redis.duplicate(),
      redis: deps.redis,
      group: GROUP,
      consumer: deps.instanceId,
      count: READ_COUNT,
      blockMs: READ_BLOCK_MS,
      onEntries: (sessionId, entries) => {
        const owned = this.owned.get(sessionId);
        if (owned) this.handle(owned, entries);
      },
      onError: (err) => deps.log.warn({ err }, 'cluster: reading the inboxes failed, retrying'),
    });
  }

  /** The fencing epoch of an owned session (the write fence reads it). */
  epochOf(sessionId: string): number | undefined {
    const owned = this.owned.get(sessionId);
    return owned && !owned.stopped ? owned.epoch : undefined;
  }

  /** Owned with a lease that has not run out: frames may be published. */
  mayPublish(sessionId: string): Owned | undefined {
    const owned = this.owned.get(sessionId);
    return owned && !owned.stopping && owned.lease.valid ? owned : undefined;
  }

  /** The instances holding a player's sockets in an owned session; undefined when unknown. */
  instancesOf(sessionId: string, playerId: string): Iterable<string> | undefined {
    return this.owned.get(sessionId)?.routes.instancesOf(playerId);
  }

  get ownedSessionIds(): string[] {
    return [...this.owned.keys()];
  }

  start(): void {
    this.timer = setInterval(() => void this.scan(), this.deps.scanMs);
    this.timer.unref();
    void this.scan();
  }

  /** Runs one scan now (or waits for the one running). */
  scan(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.scanning ??= this.scanOnce()
      .catch((err) => this.deps.log.warn({ err }, 'cluster: ownership scan failed'))
      .finally(() => (this.scanning = null));
    return this.scanning;
  }

  /**
   * Redis is back after an outage (DESIGN §16): leases held before it may have expired meanwhile.
   * For one lease time this instance takes no session it does not own, so each owner (whose
   * epoch the database still fences writes with) renews its own first and keeps its games,
   * instead of a race handing them over to an instance that never ran them.
   */
  redisBack(): void {
    this.claimsFromMs = HeldLease.now() + this.deps.leases.ttlMs;
  }

  /** Redis is away: a claim now would wait in the command queue and race the owner when it returns. */
  redisDown(): void {
    this.claimsFromMs = Number.POSITIVE_INFINITY;
  }

  private claimsFromMs = Number.NEGATIVE_INFINITY;

  /** Tries to take a session's lease now (a socket arrived for it, or the scan wants it). */
  claim(sessionId: string): void {
    if (this.owned.has(sessionId) || this.closed || HeldLease.now() < this.claimsFromMs) return;
    this.tryTake(sessionId).catch((err) => this.deps.log.warn({ err, sessionId }, 'cluster: taking a session failed'));
  }

  // -------------------------------------------------------------------------------------------

  private async scanOnce(): Promise<void> {
    const { keys, leases, db } = this.deps;
    await this.renewAll();
    const live = await db.selectFrom('sessions').select('id').where('status', '=', 'live').execute();
    const wanted = [...new Set([...live.map((r) => r.id), ...this.deps.localSessions()])].filter((id) => !this.owned.has(id) && !this.taking.has(id));
    // Only the free ones are tried (two commands): a take per session another instance owns,
    // every scan, made idle Redis traffic grow with the sessions (issue 26).
    const free = await leases.free(wanted.map((id) => keys.lease(id)));
    // Not awaited: resuming a game (loading it from the database) may take longer than a lease
    // lives on a busy machine, and the next scans must renew the lease meanwhile.
    wanted.forEach((id, i) => free[i] && this.claim(id));
    await this.reconcile(new Set(live.map((r) => r.id)));
    await this.dropDeadMembers();
  }

  /** Until when this instance's key is known alive: a lease taken is only safe while it is. */
  private aliveUntilMs = Number.NEGATIVE_INFINITY;

  /**
   * Every held lease kept by one beat of the instance's key (session-leases.ts); after a lapse
   * each lease is checked: kept, taken again, or lost.
   */
  private async renewAll(): Promise<void> {
    const { leases } = this.deps;
    for (let attempt = 0; ; attempt++) {
      const owned = [...this.owned.values()].filter((o) => !o.stopping);
      const sentAt = HeldLease.now();
      const alive = await leases.beat();
      const results: RenewResult[] = alive ? owned.map(() => 'renewed') : await leases.check(owned.map((o) => o.lease.key));
      this.aliveUntilMs = Math.max(this.aliveUntilMs, sentAt + leases.ttlMs);
      await Promise.all(owned.map((o, i) => this.renewed(o, results[i], sentAt)));
      // A beat held up by a Redis outage confirms a moment long past: the leases would still look
      // expired and every frame (the fresh states below, confirmations) be dropped until the next
      // scan. Beaten again at once, a few times at most (DESIGN §16).
      if (attempt === 2 || owned.every((o) => o.stopping || o.lease.valid)) return;
    }
  }

  private async renewed(owned: Owned, result: RenewResult, sentAt: number): Promise<void> {
    if (owned.stopping) return;
    if (result === 'lost') {
      this.deps.log.warn({ sessionId: owned.sessionId }, 'cluster: lease taken by another instance; stopping the session here');
      await this.lose(owned.sessionId);
      return;
    }
    owned.lease.confirmed(sentAt);
    // The instance's key had lapsed (Redis away past a lease's life, or back empty, or this
    // process stalled): frames may have been lost meanwhile, so every socket gets a fresh state.
    if (result === 'retaken') {
      this.deps.log.warn({ sessionId: owned.sessionId }, 'cluster: the lease had lapsed and was taken again; every socket gets a fresh state');
      this.announce(owned);
    }
  }

  private async tryTake(sessionId: string): Promise<void> {
    if (this.owned.has(sessionId) || this.taking.has(sessionId) || this.closed) return;
    this.taking.add(sessionId);
    try {
      const { leases, keys } = this.deps;
      const key = keys.lease(sessionId);
      const sentAt = HeldLease.now();
      // A lease is only held while this instance's key is alive: before the first beat (or after a
      // lapse) the next scan takes it instead.
      if (sentAt >= this.aliveUntilMs) return;
      if (!(await leases.take(key))) return;
      const epoch = await takeEpoch(this.deps.db, sessionId);
      if (epoch === undefined || this.closed) {
        await leases.release(key);
        return;
      }
      const owned: Owned = {
        sessionId,
        lease: new HeldLease(key, leases.ttlMs, sentAt),
        epoch,
        room: null,
        members: new Map(),
        routes: new PlayerRoutes(),
        stopping: false,
        stopped: false,
        unusedSinceMs: null,
        clockOffsetMs: await this.clockOffset(),
      };
      // Registered before the room loads: a resumed game may write at once, and the fence reads it.
      this.owned.set(sessionId, owned);
      const room = await this.deps.rooms.acquire(sessionId);
      if (!room || owned.stopping) {
        room?.release();
        await this.lose(sessionId);
        return;
      }
      owned.room = room;
      // How long the takeover took here (lease taken → room resumed from storage): failover's own cost.
      const resumeMs = Math.round(HeldLease.now() - sentAt);
      this.deps.log.info({ sessionId, epoch, instanceId: this.deps.instanceId, resumeMs }, 'cluster: this instance owns the session now');
      // Kept while owned (a previous owner may have let it go with an expiry).
      this.deps.redis.persist(this.deps.keys.inbox(sessionId)).catch(() => undefined);
      this.announce(owned);
      this.inbox.add(sessionId, this.deps.keys.inbox(sessionId));
    } finally {
      this.taking.delete(sessionId);
    }
  }

  /** Redis's clock minus ours, measured around one TIME round trip. */
  private async clockOffset(): Promise<number> {
    return (await redisClockOffset(this.deps.redis, this.deps.clock)).offsetMs;
  }

  private announce(owned: Owned): void {
    this.deps.redis
      .publish(this.deps.keys.outbox(owned.sessionId), encodeOutbox({ e: owned.epoch, k: 'owner' }))
      .catch((err) => this.deps.log.warn({ err, sessionId: owned.sessionId }, 'cluster: announcing the owner failed'));
  }

  /** Another instance owns the session now: stop at once, writing and publishing nothing more. */
  lose(sessionId: string): Promise<void> {
    return this.stop(sessionId, false);
  }

  /**
   * Lets a session go on purpose (deleted, unused, shutdown): what the room holds is stored first
   * (still fenced by our epoch), then the lease is freed so another instance takes over at once.
   */
  async release(sessionId: string): Promise<void> {
    const owned = this.owned.get(sessionId);
    if (!owned) return;
    await this.stop(sessionId, true);
    const { redis, keys } = this.deps;
    await atMost(redis.pexpire(keys.inbox(sessionId), INBOX_IDLE_TTL_MS).catch(() => undefined), CLOSE_WAIT_MS);
    await atMost(this.deps.leases.release(owned.lease.key).catch(() => undefined), CLOSE_WAIT_MS);
  }

  private async stop(sessionId: string, flush: boolean): Promise<void> {
    const owned = this.owned.get(sessionId);
    if (!owned || owned.stopping) return;
    owned.stopping = true;
    if (!flush) owned.stopped = true;
    this.inbox.remove(this.deps.keys.inbox(sessionId));
    await this.deps.rooms.evict(sessionId).catch((err) => this.deps.log.warn({ err, sessionId }, 'cluster: stopping a room failed'));
    owned.stopped = true;
    this.owned.delete(sessionId);
  }

  // -------------------------------------------------------------------------------------------
  // The inbox: client messages from every instance, in order, acknowledged once stored.

  private handle(owned: Owned, entries: StreamEntries): void {
    const room = owned.room;
    if (!room || owned.stopping || entries.length === 0) return;
    const ids: string[] = [];
    for (const [id, fields] of entries) {
      ids.push(id);
      const raw = fields[fields.indexOf('m') + 1];
      const entry = raw === undefined ? null : parseInboxEntry(raw);
      // Stamped by the instance it reached (never later than Redis got it: a clock ahead gains nothing).
      const arrivedAtRedisMs = entry?.k === 'event' && entry.t !== undefined ? Math.min(entry.t, entryTimeMs(id)) : entryTimeMs(id);
      if (entry) this.apply(owned, room, entry, arrivedAtRedisMs - owned.clockOffsetMs);
    }
    // Acknowledged once the room has run them and stored their answers: an owner that dies before
    // leaves them pending, and the next owner runs them again.
    room
      .settled()
      .then(() => (owned.stopping ? undefined : this.deps.redis.xack(this.deps.keys.inbox(owned.sessionId), GROUP, ...ids)))
      .catch((err) => this.deps.log.warn({ err, sessionId: owned.sessionId }, 'cluster: acknowledging inbox entries failed'));
  }

  private apply(owned: Owned, room: Room, entry: InboxEntry, arrivedAtMs: number): void {
    const log = (err: unknown) => this.deps.log.warn({ err, sessionId: owned.sessionId }, 'cluster: a relayed client message failed');
    switch (entry.k) {
      case 'connect': {
        // The same socket announced again (a new owner, Redis back): it rejoins, counted once.
        if (owned.members.has(entry.c)) room.disconnect(entry.c).catch(log);
        owned.members.set(entry.c, { role: entry.role });
        if (entry.playerId !== undefined) owned.routes.add(entry.c, entry.playerId);
        owned.unusedSinceMs = null;
        const member = { connectionId: entry.c, role: entry.role, playerId: entry.playerId, name: entry.name };
        const publisher = this.publisherFor(owned.sessionId);
        room.connect(member, (initial) => publisher.toConnection(owned.sessionId, entry.c, initial)).catch(log);
        break;
      }
      case 'disconnect':
        owned.routes.remove(entry.c);
        if (owned.members.delete(entry.c)) room.disconnect(entry.c).catch(log);
        break;
      case 'event':
        room.dispatch(entry.event, arrivedAtMs);
        break;
    }
  }

  /** Set by the node: the broadcaster the rooms publish through. */
  publisherFor: (sessionId: string) => Broadcaster = () => {
    throw new Error('cluster owner: no publisher');
  };

  // -------------------------------------------------------------------------------------------

  /** Lifecycle changes missed on pub/sub (Redis restarted) are caught up from the database. */
  private async reconcile(live: Set<string>): Promise<void> {
    const now = Date.now();
    for (const owned of [...this.owned.values()]) {
      const room = owned.room;
      if (!room || owned.stopping) continue;
      if (live.has(owned.sessionId) && !room.isLive) await room.goLive();
      if (room.isLive || owned.members.size > 0) {
        owned.unusedSinceMs = null;
      } else if (owned.unusedSinceMs === null) {
        owned.unusedSinceMs = now;
      } else if (now - owned.unusedSinceMs >= UNUSED_RELEASE_MS && !live.has(owned.sessionId)) {
        await this.release(owned.sessionId);
      }
    }
    const stillLive = [...this.owned.values()].filter((o) => o.room?.isLive && !o.stopping).map((o) => o.sessionId);
    if (stillLive.length === 0) return;
    const rows = await this.deps.db.selectFrom('sessions').select(['id', 'status']).where('id', 'in', stillLive).execute();
    const status = new Map(rows.map((r) => [r.id, r.status]));
    for (const sessionId of stillLive) {
      const owned = this.owned.get(sessionId);
      if (!owned?.room || owned.stopping) continue;
      if (!status.has(sessionId)) await this.release(sessionId);
      else if (status.get(sessionId) !== 'live') await owned.room.stop();
    }
  }

  /** Sockets of an instance that died are gone: their players no longer count as connected. */
  private async dropDeadMembers(): Promise<void> {
    const instances = new Set<string>();
    for (const owned of this.owned.values()) for (const c of owned.members.keys()) instances.add(instanceOf(c));
    instances.delete(this.deps.instanceId);
    if (instances.size === 0) return;
    const list = [...instances];
    const alive = await this.deps.redis.exists(...list.map((i) => this.deps.keys.instance(i)));
    if (alive === list.length) return;
    const present = await Promise.all(list.map(async (i) => [i, (await this.deps.redis.exists(this.deps.keys.instance(i))) === 1] as const));
    const dead = new Set(present.filter(([, ok]) => !ok).map(([i]) => i));
    for (const owned of this.owned.values()) {
      for (const c of [...owned.members.keys()]) {
        if (!dead.has(instanceOf(c))) continue;
        owned.members.delete(c);
        owned.routes.remove(c);
        owned.room?.disconnect(c).catch(() => undefined);
      }
    }
  }

  /** Shutdown: rooms store what they hold, leases are freed so another instance takes over at once. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await atMost(this.scanning ?? Promise.resolve(), CLOSE_WAIT_MS);
    await Promise.all([...this.owned.keys()].map((id) => this.release(id)));
    this.inbox.close();
    // Gone at once for the other owners: this instance's sockets stop counting as players now.
    await atMost(this.deps.redis.del(this.deps.keys.instance(this.deps.instanceId)).catch(() => undefined), CLOSE_WAIT_MS);
  }

  /** A write was refused by the fence: another instance owns the session now. */
  fenced(sessionId: string): void {
    this.deps.log.warn({ sessionId }, 'cluster: write refused by the epoch fence; stopping the session here');
    void this.lose(sessionId);
  }

  isMember(sessionId: string, connectionId: string): boolean {
    return this.owned.get(sessionId)?.members.has(connectionId) ?? false;
  }

  /** For sockets on this instance too: the stream entry to send. */
  static inboxArgs(keys: ClusterKeys, sessionId: string, entry: InboxEntry): [string, 'MAXLEN', '~', number, '*', 'm', string] {
    return [keys.inbox(sessionId), 'MAXLEN', '~', INBOX_MAX_LEN, '*', 'm', JSON.stringify(entry)];
  }
}
