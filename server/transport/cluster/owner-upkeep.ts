/**
 * The owner's scan, beside taking free leases (owner.ts): renewing the held leases, catching up
 * lifecycle changes missed on pub/sub, letting unused sessions go, and forgetting the sockets of
 * instances that died.
 */
import { instanceOf } from './envelope.js';
import { HeldLease, type RenewResult } from './lease.js';
import type { Owned, OwnerDeps } from './owned.js';

/** A session that is not live and has had no sockets for this long is let go. */
const UNUSED_RELEASE_MS = 30_000;

/** What the upkeep needs of the owner. */
export interface UpkeepOwner {
  readonly deps: OwnerDeps;
  readonly owned: Map<string, Owned>;
  /** Until when this instance's key is known alive (set by each beat). */
  aliveUntilMs: number;
  lose(sessionId: string): Promise<void>;
  release(sessionId: string): Promise<void>;
  /** Every socket of the session is asked to join again (and gets a fresh state). */
  announce(owned: Owned): void;
  /** Whether an instance whose key is gone may be taken for dead now: not during a Redis outage or just after it. */
  mayTakeForDead(): boolean;
}

/**
 * Every held lease kept by one beat of the instance's key (session-leases.ts); after a lapse
 * each lease is checked: kept, taken again, or lost.
 */
export async function renewAll(owner: UpkeepOwner): Promise<void> {
  const { leases } = owner.deps;
  for (let attempt = 0; ; attempt++) {
    const owned = [...owner.owned.values()].filter((o) => !o.stopping);
    const sentAt = HeldLease.now();
    const alive = await leases.beat();
    const results: RenewResult[] = alive ? owned.map(() => 'renewed') : await leases.check(owned.map((o) => o.lease.key));
    owner.aliveUntilMs = Math.max(owner.aliveUntilMs, sentAt + leases.ttlMs);
    await Promise.all(owned.map((o, i) => renewed(owner, o, results[i], sentAt)));
    // A beat held up by a Redis outage confirms a moment long past: the leases would still look
    // expired and every frame (the fresh states below, confirmations) be dropped until the next
    // scan. Beaten again at once, a few times at most (DESIGN §16).
    if (attempt === 2 || owned.every((o) => o.stopping || o.lease.valid)) return;
  }
}

async function renewed(owner: UpkeepOwner, owned: Owned, result: RenewResult, sentAt: number): Promise<void> {
  if (owned.stopping) return;
  if (result === 'lost') {
    owner.deps.log.warn({ sessionId: owned.sessionId }, 'cluster: lease taken by another instance; stopping the session here');
    await owner.lose(owned.sessionId);
    return;
  }
  owned.lease.confirmed(sentAt);
  // The instance's key had lapsed (Redis away past a lease's life, or back empty, or this
  // process stalled): frames may have been lost meanwhile, so every socket gets a fresh state.
  if (result === 'retaken') {
    owner.deps.log.warn({ sessionId: owned.sessionId }, 'cluster: the lease had lapsed and was taken again; every socket gets a fresh state');
    owner.announce(owned);
  }
}

/** Lifecycle changes missed on pub/sub (Redis restarted) are caught up from the database. */
export async function reconcile(owner: UpkeepOwner, live: Set<string>): Promise<void> {
  const now = Date.now();
  for (const owned of [...owner.owned.values()]) {
    const room = owned.room;
    if (!room || owned.stopping) continue;
    if (live.has(owned.sessionId) && !room.isLive) await room.goLive();
    if (room.isLive || owned.members.size > 0) {
      owned.unusedSinceMs = null;
    } else if (owned.unusedSinceMs === null) {
      owned.unusedSinceMs = now;
    } else if (now - owned.unusedSinceMs >= UNUSED_RELEASE_MS && !live.has(owned.sessionId)) {
      await owner.release(owned.sessionId);
    }
  }
  const stillLive = [...owner.owned.values()].filter((o) => o.room?.isLive && !o.stopping).map((o) => o.sessionId);
  if (stillLive.length === 0) return;
  const rows = await owner.deps.db.selectFrom('sessions').select(['id', 'status']).where('id', 'in', stillLive).execute();
  const status = new Map(rows.map((r) => [r.id, r.status]));
  for (const sessionId of stillLive) {
    const owned = owner.owned.get(sessionId);
    if (!owned?.room || owned.stopping) continue;
    if (!status.has(sessionId)) await owner.release(sessionId);
    else if (status.get(sessionId) !== 'live') await owned.room.stop();
  }
}

/** Sockets of an instance that died are gone: their players no longer count as connected. */
export async function dropDeadMembers(owner: UpkeepOwner): Promise<void> {
  if (!owner.mayTakeForDead()) return;
  const { redis, keys, instanceId } = owner.deps;
  const instances = new Set<string>();
  for (const owned of owner.owned.values()) for (const c of owned.members.keys()) instances.add(instanceOf(c));
  instances.delete(instanceId);
  if (instances.size === 0) return;
  const list = [...instances];
  const alive = await redis.exists(...list.map((i) => keys.instance(i)));
  if (alive === list.length) return;
  const present = await Promise.all(list.map(async (i) => [i, (await redis.exists(keys.instance(i))) === 1] as const));
  const dead = new Set(present.filter(([, ok]) => !ok).map(([i]) => i));
  // Asked again after the reads: a read in flight when Redis went away is resent when it comes
  // back and answers with the keys the outage let lapse, every other instance's among them.
  if (!owner.mayTakeForDead()) return;
  for (const owned of owner.owned.values()) {
    for (const c of [...owned.members.keys()]) {
      if (!dead.has(instanceOf(c))) continue;
      owned.members.delete(c);
      owned.routes.remove(c);
      owned.room?.disconnect(c).catch(() => undefined);
    }
  }
}
