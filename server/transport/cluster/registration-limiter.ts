/**
 * The per-address registration limit of DESIGN §15 counted in Redis (multi-instance mode), so a
 * client behind a round-robin balancer gets the burst once, not once per instance. Same bucket as
 * the in-process limiter (server/domain/players/rate-limit.ts): one script refills and takes (or gives
 * back) atomically, so instances racing cannot both spend the last slot. The clock is the caller's
 * (ARGV), like the login limiter's; the key's expiry (Redis's clock) only drops full buckets.
 */
import { Redis } from 'ioredis';
import { type RegistrationLimit, type RegistrationThrottle, RegistrationLimiter } from '../../domain/players/rate-limit.js';
import { ClusterKeys } from './keys.js';

/**
 * KEYS[1] the address's hash { tokens, at }; ARGV: now (ms), burst, perSecond, delta (-1 take,
 * +1 give back). Returns 0 when done, else the milliseconds until a slot (take refused). The
 * key lives as long as the bucket takes to fill up again: an idle address leaves nothing.
 */
const STEP = `
local now, burst, perSecond, delta = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or '')
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or '')
if tokens == nil or at == nil then
  tokens = burst
else
  tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * perSecond)
end
if delta < 0 and tokens < 1 then
  return math.max(1, math.ceil((1 - tokens) / perSecond * 1000))
end
tokens = math.min(burst, tokens + delta)
if tokens >= burst then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perSecond * 1000) + 1000)
return 0`;

export class RedisRegistrationLimiter implements RegistrationThrottle {
  private readonly keys: ClusterKeys;
  /** Counts while Redis is unreachable, so registration keeps working with the per-process limit. */
  private readonly fallback: RegistrationLimiter;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly limit: RegistrationLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = new ClusterKeys(prefix);
    this.fallback = new RegistrationLimiter(limit, now);
  }

  static connect(url: string, prefix: string, limit: RegistrationLimit, now: () => number = Date.now): RedisRegistrationLimiter {
    // No offline queue and a short timeout: during an outage a phone's join must not wait on Redis.
    const redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: 1_000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    });
    redis.on('error', () => undefined); // reconnects by itself; readyz reports the outage
    return new RedisRegistrationLimiter(redis, prefix, limit, now);
  }

  async take(address: string): Promise<number | null> {
    try {
      const waitMs = Number(await this.step(address, -1));
      return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : null;
    } catch {
      return this.fallback.take(address);
    }
  }

  async giveBack(address: string): Promise<void> {
    try {
      await this.step(address, 1);
    } catch {
      // The slot may have come from the fallback (Redis went away in between); giving it back
      // there at worst lets one more through, never refuses anyone.
      this.fallback.giveBack(address);
    }
  }

  close(): void {
    this.redis.disconnect();
  }

  private step(address: string, delta: number): Promise<unknown> {
    const { burst, perSecond } = this.limit;
    return this.redis.eval(STEP, 1, this.keys.registrations(address), this.now(), burst, perSecond, delta);
  }
}
