import { randomInt } from 'node:crypto';

/** A uniform integer in [0, maxExclusive): crypto.randomInt by default, a seeded one in tests. */
export type RandomInt = (maxExclusive: number) => number;

export const cryptoRandomInt: RandomInt = (maxExclusive) => randomInt(maxExclusive);

/**
 * `count` distinct candidates, each subset equally likely, in drawing order: a partial
 * Fisher–Yates shuffle of a copy (the first `count` swaps only). Fewer candidates than asked
 * for: all of them, shuffled.
 */
export function pickWinners<T>(candidates: readonly T[], count: number, random: RandomInt = cryptoRandomInt): T[] {
  const pool = [...candidates];
  const take = Math.min(count, pool.length);
  for (let i = 0; i < take; i++) {
    const j = i + random(pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, take);
}
