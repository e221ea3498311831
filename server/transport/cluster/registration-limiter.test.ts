/**
 * The per-address registration limit shared through Redis (DESIGN §15, multi-instance mode), run
 * against the machine's Redis on a fake clock: the same bucket as the in-process limiter, one budget
 * for every instance, no keys left by idle addresses, and the in-process limit while Redis is down.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { RegistrationLimiter, type RegistrationLimit, type RegistrationThrottle } from '../../domain/players/rate-limit.js';
import { closedPort } from '../../testing/cuttable-proxy.js';
import { dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { RedisRegistrationLimiter } from './registration-limiter.js';

const redis = testRedis();
const prefixes: string[] = [];
const opened: RedisRegistrationLimiter[] = [];

afterAll(async () => {
  for (const limiter of opened) limiter.close();
  for (const prefix of prefixes) await dropPrefix(redis, prefix);
  redis.disconnect();
});

function redisLimiter(limit: RegistrationLimit, now: () => number, prefix = uniquePrefix()): RedisRegistrationLimiter {
  prefixes.push(prefix);
  const limiter = new RedisRegistrationLimiter(testRedis(), prefix, limit, now);
  opened.push(limiter);
  return limiter;
}

const LIMITERS: [string, (limit: RegistrationLimit, now: () => number) => RegistrationThrottle][] = [
  ['in the process', (limit, now) => new RegistrationLimiter(limit, now)],
  ['in Redis', (limit, now) => redisLimiter(limit, now)],
];

const takes = (limiter: RegistrationThrottle, address: string, n: number) => Promise.all(Array.from({ length: n }, () => limiter.take(address)));

describe.each(LIMITERS)('registrations per address %s', (_name, make) => {
  it('lets a burst through, then refills at the rate, per address', async () => {
    let nowMs = 1_000_000;
    const limiter = make({ burst: 3, perSecond: 2 }, () => nowMs);
    expect(await takes(limiter, 'a', 3)).toEqual([null, null, null]);
    expect(await limiter.take('a')).toBe(1); // Retry-After: 1 s
    expect(await limiter.take('b')).toBeNull(); // another address is not slowed
    nowMs += 500;
    expect(await limiter.take('a')).toBeNull();
    expect(await limiter.take('a')).toBe(1);
    nowMs += 10_000; // never more than the burst saved up
    expect(await takes(limiter, 'a', 4)).toEqual([null, null, null, 1]);
  });

  it('says how long to wait at a slow rate', async () => {
    const limiter = make({ burst: 1, perSecond: 0.1 }, () => 0);
    expect(await limiter.take('a')).toBeNull();
    expect(await limiter.take('a')).toBe(10);
  });

  it('gives a slot back for a registration that created nobody', async () => {
    const limiter = make({ burst: 1, perSecond: 0.001 }, () => 0);
    expect(await limiter.take('a')).toBeNull();
    await limiter.giveBack('a');
    expect(await limiter.take('a')).toBeNull();
    expect(await limiter.take('a')).not.toBeNull();
  });
});

describe('registrations per address shared through Redis', () => {
  it('gives every instance one budget: parallel joins through two instances stop at the burst', async () => {
    const prefix = uniquePrefix();
    const now = () => 5_000;
    const [one, two] = [redisLimiter({ burst: 10, perSecond: 2 }, now, prefix), redisLimiter({ burst: 10, perSecond: 2 }, now, prefix)];
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? one : two).take('198.51.100.7')));
    expect(results.filter((r) => r === null)).toHaveLength(10);
    await one.giveBack('198.51.100.7'); // a returning device on one instance frees a slot for the other
    expect(await two.take('198.51.100.7')).toBeNull();
    expect(await one.take('198.51.100.7')).toBe(1);
  });

  it('keeps a key only while the bucket is not full, with an expiry', async () => {
    const prefix = uniquePrefix();
    const limiter = redisLimiter({ burst: 100, perSecond: 2 }, () => 0, prefix);
    const key = `${prefix}:reg:203.0.113.9`;
    await takes(limiter, '203.0.113.9', 4);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_000); // 4 slots at 2/s refill in 2 s, plus a second's slack
    for (let i = 0; i < 4; i++) await limiter.giveBack('203.0.113.9');
    expect(await redis.exists(key)).toBe(0); // full again: nothing left behind
  });

  it('falls back to the per-process limit while Redis is unreachable, without waiting on it', async () => {
    const port = await closedPort();
    const limiter = RedisRegistrationLimiter.connect(`redis://127.0.0.1:${port}`, uniquePrefix(), { burst: 2, perSecond: 1 }, () => 0);
    opened.push(limiter);
    const started = Date.now();
    expect(await takes(limiter, 'a', 3)).toEqual([null, null, 1]);
    await limiter.giveBack('a');
    expect(await limiter.take('a')).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
