import { describe, expect, it } from 'vitest';
import { isoOfMs } from './util.js';

describe('isoOfMs', () => {
  it('writes every moment exactly as toISOString does, however the calls follow each other', () => {
    const moments = [0, 1, 9, 10, 99, 100, 999, 1_000, 1_001, Date.parse('2030-01-01T20:00:00.000Z'), Date.parse('2030-01-01T20:00:00.007Z'), 253_402_300_799_999];
    // Same second, the next second, back again, far away: the cached second must never leak into another.
    const base = Date.parse('2026-11-29T23:59:59.950Z');
    for (let i = 0; i < 200; i++) moments.push(base + i, base - i * 997);
    for (let i = 0; i < 2_000; i++) moments.push(Math.floor(Math.random() * 4e12));
    for (const ms of moments) expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
  });

  it('leaves what the fast path does not cover to Date: fractions, times before 1970 and past the year 9999', () => {
    for (const ms of [1.5, 1_700_000_000_000.25, -1, -86_400_001, 253_402_300_800_000, 8.64e15]) expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
  });
});
