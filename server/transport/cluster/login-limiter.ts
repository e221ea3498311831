/**
 * The login limiter of DESIGN §15 counted in Redis, so every instance sees the same failures
 * (multi-instance mode). Same rule and arithmetic as the in-memory one (server/domain/auth/login-limiter.ts);
 * one script checks and counts an attempt atomically, so instances racing cannot both let a guess by.
 */
import { Redis } from 'ioredis';
import { type LoginThrottle, FIRST_WAIT_MS, MAX_FAILURES, MAX_WAIT_MS, WINDOW_MS, limiterKey } from '../../domain/auth/login-limiter.js';
import { ClusterKeys } from './keys.js';

/**
 * KEYS[1] the pair's hash { count, last }; ARGV: now, MAX_FAILURES, FIRST_WAIT_MS, MAX_WAIT_MS,
 * WINDOW_MS. Returns the milliseconds still to wait (attempt refused) or 0 (attempt counted).
 */
const BEGIN = `
local now = tonumber(ARGV[1])
local maxFailures, firstWait, maxWait, window = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local function waitAfter(n)
  if n < maxFailures then return 0 end
  return math.min(firstWait * 2 ^ math.min(n - maxFailures, 30), maxWait)
end
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '0')
-- Forgotten by the rule's own clock too (the key's expiry follows Redis's clock).
if count > 0 and now >= last + waitAfter(count) + window then count = 0 end
if count > 0 then
  local remaining = last + waitAfter(count) - now
  if remaining > 0 then return math.ceil(remaining) end
end
count = count + 1
redis.call('HSET', KEYS[1], 'count', count, 'last', now)
redis.call('PEXPIRE', KEYS[1], math.floor(waitAfter(count) + window))
return 0`;

export class RedisLoginLimiter implements LoginThrottle {
  private readonly keys: ClusterKeys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = new ClusterKeys(prefix);
  }

  static connect(url: string, prefix: string, now: () => number = Date.now): RedisLoginLimiter {
    const redis = new Redis(url, { maxRetriesPerRequest: 2, retryStrategy: (attempt) => Math.min(attempt * 100, 1_000) });
    redis.on('error', () => undefined); // reconnects by itself; readyz reports the outage
    return new RedisLoginLimiter(redis, prefix, now);
  }

  // While Redis is unreachable the limiter lets logins through (an operator can still log in to
  // run the show); the password check itself never depends on Redis.

  async begin(username: string, address: string): Promise<number> {
    const key = this.keys.loginFailures(limiterKey(username, address));
    try {
      const waitMs = Number(await this.redis.eval(BEGIN, 1, key, this.now(), MAX_FAILURES, FIRST_WAIT_MS, MAX_WAIT_MS, WINDOW_MS));
      return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
    } catch {
      return 0;
    }
  }

  async succeeded(username: string, address: string): Promise<void> {
    await this.redis.del(this.keys.loginFailures(limiterKey(username, address))).catch(() => undefined);
  }

  close(): void {
    this.redis.disconnect();
  }
}
