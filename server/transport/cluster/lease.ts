/**
 * One owner per live session: a lease in Redis (DESIGN §9).
 *
 * `SET key holder NX PX ttl` takes a free lease; renewing and releasing are Lua scripts that act
 * only while the key still names this holder, so an instance can never extend or drop a lease
 * another instance took after its own expired. A renewal that finds the key gone (Redis restarted
 * empty) takes it again: nobody else holds it, and the database epoch fences writes anyway.
 *
 * Redis only decides who should run a game. Whether a stale owner may still write is decided in
 * the database (fence.ts), and whether it may still publish by `validUntil` here: a local,
 * monotonic deadline that a paused process overruns without noticing, so it stays silent until a
 * renewal succeeds again.
 */
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';

const RENEW = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not current then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0`;

/** RENEW for every key of KEYS at once (the instance's whole set, one command per scan): a result per key. */
const RENEW_MANY = `
local results = {}
for i, key in ipairs(KEYS) do
  local current = redis.call('GET', key)
  if current == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    results[i] = 1
  elseif not current then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    results[i] = 2
  else
    results[i] = 0
  end
end
return results`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

export type RenewResult = 'renewed' | 'retaken' | 'lost';

export class LeaseClient {
  constructor(
    private readonly redis: Redis,
    readonly holder: string,
    readonly ttlMs: number,
  ) {}

  /** True when the lease was free and is now this holder's. */
  async acquire(key: string): Promise<boolean> {
    return (await this.redis.set(key, this.holder, 'PX', this.ttlMs, 'NX')) === 'OK';
  }

  async renew(key: string): Promise<RenewResult> {
    const result = Number(await this.redis.eval(RENEW, 1, key, this.holder, this.ttlMs));
    return result === 1 ? 'renewed' : result === 2 ? 'retaken' : 'lost';
  }

  /**
   * Renews many leases in one command (issue 26: an instance's Redis commands at idle must not
   * grow with the sessions it owns). Same rules as `renew`, key by key, in one atomic script.
   */
  async renewMany(keys: string[]): Promise<RenewResult[]> {
    if (keys.length === 0) return [];
    const results = (await this.redis.eval(RENEW_MANY, keys.length, ...keys, this.holder, this.ttlMs)) as number[];
    return results.map((r) => (Number(r) === 1 ? 'renewed' : Number(r) === 2 ? 'retaken' : 'lost'));
  }

  /** Which of these leases are free now (one MGET): the scan tries to take only those. */
  async free(keys: string[]): Promise<boolean[]> {
    if (keys.length === 0) return [];
    return (await this.redis.mget(...keys)).map((holder) => holder === null);
  }

  /** Drops the lease if it is still this holder's. */
  async release(key: string): Promise<boolean> {
    return Number(await this.redis.eval(RELEASE, 1, key, this.holder)) === 1;
  }

  async holderOf(key: string): Promise<string | null> {
    return this.redis.get(key);
  }
}

/**
 * The local view of one held lease: valid until `ttl` after the last confirmed acquire/renew was
 * SENT (the request time, not the reply time: Redis may have started the TTL any time after it).
 */
export class HeldLease {
  private validUntilMs: number;

  constructor(
    readonly key: string,
    private readonly ttlMs: number,
    sentAtMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.validUntilMs = sentAtMs + ttlMs;
  }

  static now(): number {
    return performance.now();
  }

  confirmed(sentAtMs: number): void {
    this.validUntilMs = Math.max(this.validUntilMs, sentAtMs + this.ttlMs);
  }

  get valid(): boolean {
    return this.now() < this.validUntilMs;
  }
}
