/**
 * Session leases tied to the holder's liveness (issue 26): a session's lease key names its holder
 * (`instanceId:token`) and has no expiry of its own; the holder's instance key
 * (`instance:<id>` = holder, PX ttl) is what expires. A lease is free when its key is absent or
 * its holder's instance key no longer names that holder (the instance died, or restarted as a new
 * holder). So keeping every lease an instance owns costs one command per scan, whatever their
 * number: `SET instance holder PX ttl GET`. Before, a script renewed each lease (a GET and a
 * PEXPIRE per session inside Redis: 4,200 commands a second at 1,000 idle sessions).
 *
 * Safety is the same as with a TTL per lease: nobody can take a lease while its holder's instance
 * key is alive, and the holder only acts while its last confirmed beat is younger than the TTL
 * (HeldLease). A beat that finds its instance key gone (the process stalled past the TTL, Redis
 * was away that long or restarted empty) checks each lease: its own or gone → taken again (and
 * every socket is sent a fresh state, as frames may have been lost); another holder's → lost. The
 * database epoch fences writes either way (fence.ts).
 */
import type { Redis } from 'ioredis';
import type { RenewResult } from './lease.js';

/** Takes a lease that is free (absent, or its holder's instance key does not name that holder). */
const TAKE = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return 1 end
if current then
  local instance = string.match(current, '^(.*):[^:]*$')
  if instance and redis.call('GET', ARGV[2] .. instance) == current then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** The instance part of a holder (`instanceId:token`). */
export function instanceOfHolder(holder: string): string {
  const colon = holder.lastIndexOf(':');
  return colon < 0 ? holder : holder.slice(0, colon);
}

export class SessionLeases {
  constructor(
    private readonly redis: Redis,
    readonly holder: string,
    readonly ttlMs: number,
    /** `prefix:instance:` — the instance key is this followed by the instance id. */
    private readonly instancePrefix: string,
  ) {}

  /**
   * This instance is alive for another TTL. True when it had stayed alive since the last beat
   * (every lease it held is still its own); false when its key had lapsed or named someone else:
   * then `check` the leases.
   */
  async beat(): Promise<boolean> {
    const previous = await this.redis.set(this.instancePrefix + instanceOfHolder(this.holder), this.holder, 'PX', this.ttlMs, 'GET');
    return previous === this.holder;
  }

  /** Takes the lease if it is free; true when it is this holder's now. */
  async take(key: string): Promise<boolean> {
    return Number(await this.redis.eval(TAKE, 1, key, this.holder, this.instancePrefix)) === 1;
  }

  /** Which of these leases are free (two commands whatever their number): the scan tries only those. */
  async free(keys: string[]): Promise<boolean[]> {
    if (keys.length === 0) return [];
    const holders = await this.redis.mget(...keys);
    const instances = [...new Set(holders.filter((h): h is string => h !== null).map(instanceOfHolder))];
    const alive = new Map<string, string | null>();
    if (instances.length > 0) {
      const current = await this.redis.mget(...instances.map((i) => this.instancePrefix + i));
      instances.forEach((instance, i) => alive.set(instance, current[i]));
    }
    return holders.map((holder) => holder === null || alive.get(instanceOfHolder(holder)) !== holder);
  }

  /**
   * After a lapse, each lease: 'retaken' when it is still (or again, if Redis forgot it) this
   * holder's — it lapsed all the same, so frames may have been lost meanwhile — or 'lost' to another.
   */
  async check(keys: string[]): Promise<RenewResult[]> {
    if (keys.length === 0) return [];
    const holders = await this.redis.mget(...keys);
    return Promise.all(
      holders.map(async (holder, i): Promise<RenewResult> => {
        if (holder === this.holder) return 'retaken';
        if (holder !== null) return 'lost';
        return (await this.redis.set(keys[i], this.holder, 'NX')) === 'OK' ? 'retaken' : 'lost';
      }),
    );
  }

  /** Drops the lease if it is still this holder's. */
  async release(key: string): Promise<boolean> {
    return Number(await this.redis.eval(RELEASE, 1, key, this.holder)) === 1;
  }
}
