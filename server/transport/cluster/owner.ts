/**
 * The sessions this instance owns (DESIGN §9): for each, the lease, the fencing epoch, the room
 * and the consumer of the session's inbox stream (inbox.ts).
 *
 * A scan every `scanMs` renews the held leases, takes free leases of sessions that need an owner
 * (live in the database, or with sockets on this instance), drops members whose instance died,
 * and lets go of sessions nobody uses any more (owner-upkeep.ts). An owner that finds its lease
 * taken, or its write refused by the epoch fence, stops the session's room at once and writes
 * nothing more.
 */
import type { Broadcaster } from '../../game/rooms/index.js';
import { type InboxEntry, encodeOutbox, instanceOf } from './envelope.js';
import { takeEpoch } from './fence.js';
import { applyDirect, handleEntries, INBOX_GROUP, INBOX_READ_BLOCK_MS, INBOX_READ_COUNT } from './inbox.js';
import { InboxReader } from './inbox-reader.js';
import type { ClusterKeys } from './keys.js';
import { HeldLease } from './lease.js';
import { CLOSE_WAIT_MS, type Owned, type OwnerDeps, atMost } from './owned.js';
import { dropDeadMembers, reconcile, renewAll } from './owner-upkeep.js';
import { redisClockOffset } from './redis-clock.js';
import { REJOIN_WAIT_MS, RedisOutage, RelayWatch, revealWaits } from './relay-hold.js';
import { PlayerRoutes } from './routes.js';
import type { LocalFrames } from './relay.js';

export type { OwnerDeps } from './owned.js';

/** Inbox entries kept at most (approximate trim): far above what an owner change leaves pending. */
const INBOX_MAX_LEN = 100_000;
/** A session let go keeps its inbox this long (a later owner reads what arrived meanwhile), then Redis drops it. */
const INBOX_IDLE_TTL_MS = 60 * 60 * 1000;

export class ClusterOwner {
  readonly owned = new Map<string, Owned>();
  private readonly taking = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;
  private beating: Promise<void> | null = null;
  private closed = false;
  private claimsFromMs = Number.NEGATIVE_INFINITY;
  /** Until then no other instance is taken for dead (its key may have lapsed in a Redis outage). */
  private deathsFromMs = Number.NEGATIVE_INFINITY;
  private readonly outage = new RedisOutage();
  /** Every owned session's inbox, read by one blocked read (inbox-reader.ts). */
  private readonly inbox: InboxReader;
  /** Until when this instance's key is known alive: a lease taken is only safe while it is (owner-upkeep.ts sets it). */
  aliveUntilMs = Number.NEGATIVE_INFINITY;

  constructor(readonly deps: OwnerDeps) {
    this.inbox = new InboxReader({
      connect: () => deps.redis.duplicate(),
      redis: deps.redis,
      group: INBOX_GROUP,
      consumer: deps.instanceId,
      count: INBOX_READ_COUNT,
      blockMs: INBOX_READ_BLOCK_MS,
      onEntries: (sessionId, entries) => {
        const owned = this.owned.get(sessionId);
        if (owned) handleEntries(this, owned, entries);
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

  /** Runs the session (even with its lease lapsed in a Redis outage: the database fences its writes): its own sockets get its frames. */
  localEpoch(sessionId: string): number | undefined {
    const owned = this.owned.get(sessionId);
    return owned && !owned.stopping ? owned.epoch : undefined;
  }

  /** The instances holding a player's sockets in an owned session; undefined when unknown. */
  instancesOf(sessionId: string, playerId: string): Iterable<string> | undefined {
    return this.owned.get(sessionId)?.routes.instancesOf(playerId);
  }

  get ownedSessionIds(): string[] {
    return [...this.owned.keys()];
  }

  start(): void {
    // The beat has a timer of its own: a scan waits for the database, and a slow query there (a
    // busy PostgreSQL) must not let the leases lapse and hand running games to another instance.
    this.timer = setInterval(() => {
      void this.beat();
      void this.scan();
    }, this.deps.scanMs);
    this.timer.unref();
    void this.scan();
  }

  /** Renews this instance's key and so its leases (or joins the renewal under way). */
  private beat(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.beating ??= renewAll(this)
      .catch((err) => this.deps.log.warn({ err }, 'cluster: renewing the leases failed'))
      .finally(() => (this.beating = null));
    return this.beating;
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
    // Every instance's key lapsed in an outage longer than a lease, and the others reconnect on
    // their own schedule: until they have had time to beat again (and relay what they held for a
    // held reveal, relay-hold.ts), their sockets still count.
    this.deathsFromMs = HeldLease.now() + Math.max(this.deps.leases.ttlMs, REJOIN_WAIT_MS);
    this.outage.back(this.deps.clock.now());
    // Renewed now rather than at the next beat: until then the owner publishes nothing to the other instances.
    void this.beat();
    void this.scan();
  }

  mayTakeForDead(): boolean {
    return HeldLease.now() >= this.deathsFromMs;
  }

  /** Redis is away: a claim now would wait in the command queue and race the owner when it returns. */
  redisDown(): void {
    this.claimsFromMs = Number.POSITIVE_INFINITY;
    this.deathsFromMs = Number.POSITIVE_INFINITY;
    this.outage.down(this.deps.clock.now());
  }

  /** Tries to take a session's lease now (a socket arrived for it, or the scan wants it). */
  claim(sessionId: string): void {
    if (this.owned.has(sessionId) || this.closed || HeldLease.now() < this.claimsFromMs) return;
    this.tryTake(sessionId).catch((err) => this.deps.log.warn({ err, sessionId }, 'cluster: taking a session failed'));
  }

  /**
   * A message of a socket on this instance, for a session it owns with its room running: handed
   * to the room at once, no Redis in between (DESIGN §16). False when it must go through the inbox.
   */
  direct(sessionId: string, entry: InboxEntry): boolean {
    const owned = this.owned.get(sessionId);
    return owned !== undefined && !owned.stopping && applyDirect(this, owned, entry);
  }

  /** Whether the socket's messages still reach the room directly (it joined that way and the room is still here). */
  isDirect(sessionId: string, connectionId: string): boolean {
    const owned = this.owned.get(sessionId);
    return owned !== undefined && !owned.stopping && owned.direct.has(connectionId);
  }

  /**
   * The room asks at a question's deadline whether its reveal waits for answers that other
   * instances stamped in time but could not relay (Redis down, relay-hold.ts).
   */
  holdReveal(sessionId: string, endsAtMs: number): boolean {
    const owned = this.owned.get(sessionId);
    if (!owned || owned.stopping) return false;
    const others = new Set<string>();
    for (const c of owned.members.keys()) if (instanceOf(c) !== this.deps.instanceId) others.add(instanceOf(c));
    const nowMs = this.deps.clock.now();
    const waits = others.size > 0 && revealWaits(this.outage, owned.relay, others, endsAtMs, nowMs);
    const { relay } = owned;
    if (waits && relay.holdingFor !== endsAtMs) {
      relay.holdingFor = endsAtMs;
      this.deps.log.warn({ sessionId, instances: others.size }, "cluster: Redis was down at the question's deadline; the reveal waits for answers other instances took in time");
    } else if (!waits && relay.holdingFor === endsAtMs) {
      relay.holdingFor = null;
      this.deps.log.info({ sessionId, waitedMs: Math.round(nowMs - endsAtMs) }, 'cluster: the reveal goes on');
    }
    return waits;
  }

  /** Set by the node: this instance's sockets, which get the owner's frames without Redis. */
  local: LocalFrames | null = null;

  /** Set by the node: a session's room runs here now (taken or resumed); the operator's overview hears of it. */
  onOwned: (sessionId: string) => void = () => undefined;

  /** Set by the node: the broadcaster the rooms publish through. */
  publisherFor: (sessionId: string) => Broadcaster = () => {
    throw new Error('cluster owner: no publisher');
  };

  // -------------------------------------------------------------------------------------------

  private async scanOnce(): Promise<void> {
    const { keys, leases, db } = this.deps;
    await this.beat();
    const live = await db.selectFrom('sessions').select('id').where('status', '=', 'live').execute();
    const wanted = [...new Set([...live.map((r) => r.id), ...this.deps.localSessions()])].filter((id) => !this.owned.has(id) && !this.taking.has(id));
    // Only the free ones are tried (two commands): a take per session another instance owns,
    // every scan, made idle Redis traffic grow with the sessions (issue 26).
    const free = await leases.free(wanted.map((id) => keys.lease(id)));
    // Not awaited: resuming a game (loading it from the database) may take longer than a lease
    // lives on a busy machine, and the next scans must renew the lease meanwhile.
    wanted.forEach((id, i) => free[i] && this.claim(id));
    await reconcile(this, new Set(live.map((r) => r.id)));
    await dropDeadMembers(this);
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
        direct: new Set(),
        relay: new RelayWatch(),
        stopping: false,
        stopped: false,
        unusedSinceMs: null,
        clockOffsetMs: (await redisClockOffset(this.deps.redis, this.deps.clock)).offsetMs,
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
      this.onOwned(sessionId);
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

  /** Every instance announces its sockets of the session again (this one's through `local`, without Redis). */
  announce(owned: Owned): void {
    const { redis, keys, instanceId } = this.deps;
    const header = { e: owned.epoch, k: 'owner', o: instanceId } as const;
    redis.publish(keys.outbox(owned.sessionId), encodeOutbox(header)).catch((err) => this.deps.log.warn({ err, sessionId: owned.sessionId }, 'cluster: announcing the owner failed'));
    this.local?.deliver(owned.sessionId, header, Buffer.alloc(0));
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

  /** Shutdown: rooms store what they hold, leases are freed so another instance takes over at once. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await atMost(Promise.all([this.scanning, this.beating]), CLOSE_WAIT_MS);
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
