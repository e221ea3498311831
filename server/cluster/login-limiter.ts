/**
 * The login limiter of DESIGN §2 counted in Redis, so every instance sees the same failures
 * (multi-instance mode). Same rule as the in-memory one: MAX_FAILURES within WINDOW_MS of the
 * first failure, then 429 until that window ends.
 */
import { Redis } from 'ioredis';
import { type LoginThrottle, MAX_FAILURES, WINDOW_MS } from '../auth/login-limiter.js';
import { ClusterKeys } from './keys.js';

/** The window starts at the first failure: only that INCR sets the expiry. */
const RECORD = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export class RedisLoginLimiter implements LoginThrottle {
  private readonly keys: ClusterKeys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new ClusterKeys(prefix);
  }

  static connect(url: string, prefix: string): RedisLoginLimiter {
    const redis = new Redis(url, { maxRetriesPerRequest: 2, retryStrategy: (attempt) => Math.min(attempt * 100, 1_000) });
    redis.on('error', () => undefined); // reconnects by itself; readyz reports the outage
    return new RedisLoginLimiter(redis, prefix);
  }

  // While Redis is unreachable the limiter lets logins through (an operator can still log in to
  // run the show); the password check itself never depends on Redis.

  async retryAfterSeconds(address: string): Promise<number> {
    const key = this.keys.loginFailures(address);
    try {
      const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
      if (Number(count ?? 0) < MAX_FAILURES || ttl <= 0) return 0;
      return Math.ceil(ttl / 1000);
    } catch {
      return 0;
    }
  }

  async recordFailure(address: string): Promise<void> {
    await this.redis.eval(RECORD, 1, this.keys.loginFailures(address), WINDOW_MS).catch(() => undefined);
  }

  async recordSuccess(address: string): Promise<void> {
    await this.redis.del(this.keys.loginFailures(address)).catch(() => undefined);
  }

  close(): void {
    this.redis.disconnect();
  }
}
