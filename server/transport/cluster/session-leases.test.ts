import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { SessionLeases } from './session-leases.js';

describe('session leases tied to the holder’s instance key (real Redis)', () => {
  const redis = testRedis();
  let prefix: string;
  beforeEach(() => {
    prefix = uniquePrefix();
  });
  afterEach(() => dropPrefix(redis, prefix));
  afterAll(() => redis.quit());

  const leasesOf = (holder: string, ttlMs = 5_000) => new SessionLeases(redis, holder, ttlMs, `${prefix}:instance:`);
  const lease = (s: string) => `${prefix}:lease:${s}`;

  it('nobody takes a lease while its holder beats; once it stops, anyone may', async () => {
    const a = leasesOf('a:1', 300);
    const b = leasesOf('b:1', 300);
    expect(await a.beat()).toBe(false); // the first beat: nothing was held before
    expect(await a.take(lease('s1'))).toBe(true);
    expect(await b.take(lease('s1'))).toBe(false);
    expect(await b.free([lease('s1'), lease('s2')])).toEqual([false, true]);
    expect(await a.beat()).toBe(true);
    // a stops beating: its key expires and its lease is free, with no command per lease meanwhile.
    for (let i = 0; i < 200 && !(await b.free([lease('s1')]))[0]; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await b.take(lease('s1'))).toBe(true);
    expect(await redis.get(lease('s1'))).toBe('b:1');
    // a comes back: its beat says it lapsed, and the check says which leases it lost.
    expect(await a.beat()).toBe(false);
    expect(await a.check([lease('s1')])).toEqual(['lost']);
    expect(await a.release(lease('s1'))).toBe(false);
    expect(await b.release(lease('s1'))).toBe(true);
  });

  it('a restarted instance (same id, new holder) does not inherit its previous life’s leases', async () => {
    const old = leasesOf('i-1:old');
    await old.beat();
    await old.take(lease('s1'));
    const restarted = leasesOf('i-1:new');
    expect(await restarted.beat()).toBe(false);
    // The instance key names the new holder now: the old holder's lease is free.
    expect(await restarted.free([lease('s1')])).toEqual([true]);
    expect(await restarted.take(lease('s1'))).toBe(true);
  });

  it('after Redis forgot everything (restarted empty) the holder takes its leases again', async () => {
    const a = leasesOf('a:1');
    const b = leasesOf('b:1');
    await a.beat();
    await b.beat();
    await a.take(lease('mine'));
    await b.take(lease('theirs'));
    await dropPrefix(redis, prefix);
    await b.beat();
    await b.take(lease('theirs'));
    expect(await a.beat()).toBe(false);
    expect(await a.check([lease('mine'), lease('theirs')])).toEqual(['retaken', 'lost']);
    // Its own lease survived a lapse: taken again all the same (frames may have been lost).
    expect(await a.check([lease('mine')])).toEqual(['retaken']);
    expect(await redis.get(lease('mine'))).toBe('a:1');
    expect(await a.check([])).toEqual([]);
  });
});
