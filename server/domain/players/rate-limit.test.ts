import { describe, expect, it } from 'vitest';
import { BurstWatch, type BurstReport } from './bursts.js';
import { parseRegistrationLimit, RegistrationLimiter } from './rate-limit.js';

describe('registrations per address', () => {
  it('lets a burst through, then refills at the rate, per address', () => {
    let nowMs = 0;
    const limiter = new RegistrationLimiter({ burst: 3, perSecond: 2 }, () => nowMs);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([null, null, null]);
    expect(limiter.take('a')).toBe(1); // wait a second (half a slot would do, Retry-After is whole seconds)
    expect(limiter.take('b')).toBeNull(); // another address is not slowed
    nowMs += 500;
    expect(limiter.take('a')).toBeNull();
    expect(limiter.take('a')).toBe(1);
    nowMs += 10_000; // never more than the burst saved up
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([null, null, null, 1]);
  });

  it('gives a slot back for a registration that created nobody', () => {
    const limiter = new RegistrationLimiter({ burst: 1, perSecond: 0.001 }, () => 0);
    expect(limiter.take('a')).toBeNull();
    limiter.giveBack('a');
    expect(limiter.take('a')).toBeNull();
    expect(limiter.take('a')).not.toBeNull();
  });

  it('is off with REGISTRATION_LIMIT=off and refuses malformed values', () => {
    const limiter = new RegistrationLimiter(parseRegistrationLimit('off')!, () => 0);
    for (let i = 0; i < 1000; i++) expect(limiter.take('a')).toBeNull();
    expect(parseRegistrationLimit('100,2')).toEqual({ burst: 100, perSecond: 2 });
    expect(parseRegistrationLimit(' 5 , 0.5 ')).toEqual({ burst: 5, perSecond: 0.5 });
    for (const bad of ['', '100', '0,2', '100,0', 'a,b', '-1,2']) expect(parseRegistrationLimit(bad), bad).toBeUndefined();
  });

  it('reports a burst of refusals to the operator at most every 2 s, counting the last minute', () => {
    let nowMs = 0;
    const reports: [string, BurstReport][] = [];
    const watch = new BurstWatch((sessionId, burst) => reports.push([sessionId, burst]), () => nowMs);
    for (let i = 0; i < 50; i++) watch.refused('s1', i % 2 ? '10.0.0.1' : '10.0.0.2');
    expect(reports).toEqual([['s1', { refused: 1, addresses: 1 }]]);
    nowMs += 2_000;
    watch.refused('s1', '10.0.0.3');
    expect(reports.at(-1)).toEqual(['s1', { refused: 51, addresses: 3 }]);
    nowMs += 61_000;
    watch.refused('s1', '10.0.0.1');
    expect(reports.at(-1)).toEqual(['s1', { refused: 1, addresses: 1 }]);
  });
});
