/**
 * The login limiter's rule (DESIGN §15), the same for the in-process limiter and the Redis one
 * (run against the machine's Redis): both are driven by one fake clock.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { RedisLoginLimiter } from '../../transport/cluster/login-limiter.js';
import { TEST_REDIS_URL, dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { type LoginThrottle, LoginLimiter, MAX_FAILURES, WINDOW_MS, waitAfterMs } from './login-limiter.js';

const redis = testRedis();
const prefixes: string[] = [];
const opened: RedisLoginLimiter[] = [];
afterAll(async () => {
  for (const limiter of opened) limiter.close();
  for (const prefix of prefixes) await dropPrefix(redis, prefix);
  redis.disconnect();
});

function redisLimiter(now: () => number): LoginThrottle {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const limiter = new RedisLoginLimiter(testRedis(), prefix, now);
  opened.push(limiter);
  return limiter;
}

const LIMITERS: [string, (now: () => number) => LoginThrottle][] = [
  ['in process', (now) => new LoginLimiter(now)],
  ['in Redis', redisLimiter],
];

describe.each(LIMITERS)('login limiter %s', (_name, make) => {
  const setup = () => {
    let nowMs = 1_700_000_000_000;
    const clock = { advance: (ms: number) => (nowMs += ms) };
    return { limiter: make(() => nowMs), clock };
  };
  /** n failed attempts (each counted at start and never forgiven). */
  const fail = async (limiter: LoginThrottle, n: number, user = 'admin', address = '203.0.113.1') => {
    for (let i = 0; i < n; i++) expect(await limiter.begin(user, address)).toBe(0);
  };

  it('lets 5 failures through, then waits 1 s, doubling with each failure', async () => {
    const { limiter, clock } = setup();
    await fail(limiter, MAX_FAILURES);
    expect(await limiter.begin('admin', '203.0.113.1')).toBe(1);
    clock.advance(1000);
    await fail(limiter, 1); // the 6th failure
    expect(await limiter.begin('admin', '203.0.113.1')).toBe(2);
    clock.advance(2000);
    await fail(limiter, 1);
    expect(await limiter.begin('admin', '203.0.113.1')).toBe(4);
    clock.advance(1999);
    expect(await limiter.begin('admin', '203.0.113.1')).toBe(3);
  });

  it('caps the wait at 15 minutes', async () => {
    const { limiter, clock } = setup();
    await fail(limiter, MAX_FAILURES);
    for (let i = 0; i < 12; i++) {
      clock.advance(waitAfterMs(MAX_FAILURES + i));
      await fail(limiter, 1);
    }
    expect(await limiter.begin('admin', '203.0.113.1')).toBe(15 * 60);
  });

  it('never slows another address, nor another username from the same address', async () => {
    const { limiter } = setup();
    await fail(limiter, MAX_FAILURES);
    expect(await limiter.begin('admin', '203.0.113.1')).toBeGreaterThan(0);
    expect(await limiter.begin('admin', '198.51.100.2')).toBe(0);
    expect(await limiter.begin('projectionist', '203.0.113.1')).toBe(0);
    // The username's letter case does not make a fresh count.
    expect(await limiter.begin('ADMIN', '203.0.113.1')).toBeGreaterThan(0);
  });

  it('forgets the failures 15 minutes after the last wait ended, and at once after a success', async () => {
    const { limiter, clock } = setup();
    await fail(limiter, MAX_FAILURES);
    clock.advance(1000 + WINDOW_MS);
    await fail(limiter, MAX_FAILURES);
    expect(await limiter.begin('admin', '203.0.113.1')).toBe(1);
    clock.advance(1000);
    expect(await limiter.begin('admin', '203.0.113.1')).toBe(0);
    await limiter.succeeded('admin', '203.0.113.1');
    await fail(limiter, MAX_FAILURES);
  });

  it('counts parallel attempts one by one: a burst gets only 5 guesses', async () => {
    const { limiter } = setup();
    const waits = await Promise.all(Array.from({ length: 20 }, () => limiter.begin('admin', '203.0.113.9')));
    expect(waits.filter((w) => w === 0)).toHaveLength(MAX_FAILURES);
  });
});

it('runs against the machine Redis', () => expect(TEST_REDIS_URL).toMatch(/^redis:/));
