/**
 * Percentiles on sorted arrays: the bench collects at most a few tens of thousands of samples per
 * figure, so sorting once is cheaper and simpler than a histogram library.
 */

export interface Distribution {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile (p in 0–100) of an ascending array; NaN when empty. */
export function percentile(sortedAscending: readonly number[], p: number): number {
  const n = sortedAscending.length;
  if (n === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * n);
  return sortedAscending[Math.min(n, Math.max(1, rank)) - 1];
}

export function distribution(samples: readonly number[]): Distribution {
  const sorted = Float64Array.from(samples).sort();
  const asArray = Array.from(sorted);
  return {
    count: asArray.length,
    p50: round(percentile(asArray, 50)),
    p95: round(percentile(asArray, 95)),
    p99: round(percentile(asArray, 99)),
    max: round(asArray.length ? asArray[asArray.length - 1] : Number.NaN),
  };
}

/** One decimal is plenty for milliseconds; keeps the JSON readable. */
export function round(value: number, digits = 1): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN;
}
