import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pickWinners, type RandomInt } from './pick.js';

/**
 * Uniformity, checked statistically: 3 winners out of 7 candidates has C(7,3) = 35 possible
 * winner sets, each of which must come up equally often. A chi-square test over a fixed number
 * of draws with crypto randomness; the p-value threshold (1e-9) makes a false failure
 * astronomically unlikely, while a biased picker fails by a wide margin (checked below).
 */
const CANDIDATES = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const WINNERS = 3;
const SUBSETS = 35;
const TRIALS = 70_000; // 2,000 expected per set
const P_THRESHOLD = 1e-9;

/** Upper tail of the chi-square distribution for an even number of degrees of freedom (closed form). */
function chiSquareUpperTail(statistic: number, degreesOfFreedom: number): number {
  expect(degreesOfFreedom % 2).toBe(0);
  const half = statistic / 2;
  let term = Math.exp(-half);
  let sum = term;
  for (let i = 1; i < degreesOfFreedom / 2; i++) {
    term *= half / i;
    sum += term;
  }
  return Math.min(1, sum);
}

function chiSquarePValue(random: RandomInt): number {
  const counts = new Map<string, number>();
  for (let t = 0; t < TRIALS; t++) {
    const key = pickWinners(CANDIDATES, WINNERS, random).sort().join('');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const expected = TRIALS / SUBSETS;
  let statistic = 0;
  for (const observed of [...counts.values(), ...Array(SUBSETS - counts.size).fill(0)]) statistic += (observed - expected) ** 2 / expected;
  // 35 cells: 34 degrees of freedom.
  return chiSquareUpperTail(statistic, SUBSETS - 1);
}

describe('pickWinners', () => {
  it('draws distinct candidates, as many as asked, or all of them when fewer', () => {
    for (let t = 0; t < 200; t++) {
      const winners = pickWinners(CANDIDATES, 4);
      expect(new Set(winners).size).toBe(4);
      for (const w of winners) expect(CANDIDATES).toContain(w);
    }
    expect(pickWinners(['x', 'y'], 10).sort()).toEqual(['x', 'y']);
    expect(pickWinners([], 3)).toEqual([]);
    expect(CANDIDATES).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']); // the input is not shuffled
  });

  it('the closed-form tail matches known chi-square values', () => {
    // df 2: P(X > x) = e^(-x/2); df 34 at its 0.05 and 0.001 critical values (tables: 48.602, 65.247).
    expect(chiSquareUpperTail(2, 2)).toBeCloseTo(Math.exp(-1), 12);
    expect(chiSquareUpperTail(48.602, 34)).toBeCloseTo(0.05, 3);
    expect(chiSquareUpperTail(65.247, 34)).toBeCloseTo(0.001, 4);
  });

  it('makes every set of winners equally likely (chi-square, p above 1e-9)', () => {
    expect(chiSquarePValue((max) => randomInt(max))).toBeGreaterThan(P_THRESHOLD);
  });

  it('the same check rejects a biased random source', () => {
    // randomInt(max + 1) % max: index 0 twice as likely as each other one.
    expect(chiSquarePValue((max) => randomInt(max + 1) % max)).toBeLessThan(P_THRESHOLD);
  });
});
