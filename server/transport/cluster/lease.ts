/**
 * A lease in Redis with a TTL of its own (DESIGN §9): the pre-shows' cluster-wide lease. Session
 * leases are tied to their holder's instance key instead (session-leases.ts, issue 26); both share
 * HeldLease, the holder's local view.
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
