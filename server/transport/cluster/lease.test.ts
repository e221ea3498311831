import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { HeldLease, LeaseClient } from './lease.js';

describe('session lease (real Redis)', () => {
  const redis = testRedis();
  let prefix: string;
  beforeEach(() => {
    prefix = uniquePrefix();
  });
  afterEach(() => dropPrefix(redis, prefix));
  afterAll(() => redis.quit());

  it('one holder at a time; only the holder renews or releases', async () => {
    const key = `${prefix}:lease:s1`;
    const a = new LeaseClient(redis, 'a:1', 5_000);
    const b = new LeaseClient(redis, 'b:1', 5_000);
    expect(await a.acquire(key)).toBe(true);
    expect(await b.acquire(key)).toBe(false);
    expect(await b.renew(key)).toBe('lost');
    expect(await b.release(key)).toBe(false);
    expect(await a.holderOf(key)).toBe('a:1');
    expect(await a.renew(key)).toBe('renewed');
    expect(await a.release(key)).toBe(true);
    expect(await b.acquire(key)).toBe(true);
    expect(await a.renew(key)).toBe('lost');
  });

  it('expires when not renewed, and another instance takes it', async () => {
    const key = `${prefix}:lease:s2`;
    const a = new LeaseClient(redis, 'a:1', 150);
    const b = new LeaseClient(redis, 'b:1', 150);
    expect(await a.acquire(key)).toBe(true);
    // Poll until Redis expired it (no fixed sleep racing the machine's load).
    for (let i = 0; i < 200 && !(await b.acquire(key)); i++) await new Promise((r) => setTimeout(r, 25));
    expect(await b.holderOf(key)).toBe('b:1');
    expect(await a.renew(key)).toBe('lost');
  });

  it('renewing a lease Redis forgot (restarted empty) takes it again', async () => {
    const key = `${prefix}:lease:s3`;
    const a = new LeaseClient(redis, 'a:1', 5_000);
    expect(await a.acquire(key)).toBe(true);
    await redis.del(key);
    expect(await a.renew(key)).toBe('retaken');
    expect(await a.holderOf(key)).toBe('a:1');
    expect(await redis.pttl(key)).toBeGreaterThan(0);
  });

  it('the local view runs out TTL after the request was sent, whatever the process did meanwhile', () => {
    let now = 1_000;
    const held = new HeldLease('k', 3_000, now, () => now);
    now = 3_999;
    expect(held.valid).toBe(true);
    now = 4_000; // a paused process wakes up here: it must not act as the owner any more
    expect(held.valid).toBe(false);
    held.confirmed(3_900);
    expect(held.valid).toBe(true);
    held.confirmed(100); // an old reply never shortens it
    now = 6_899;
    expect(held.valid).toBe(true);
  });
});
