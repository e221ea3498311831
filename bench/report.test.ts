import { describe, expect, it } from 'vitest';
import type { TargetResult } from './ipc.js';
import type { BenchReport } from './runner.js';
import { againstBound, capacityTable, firstRoundResults, medianRoundResultP99, ratioCheck } from './report.js';

describe('a target against the baseline', () => {
  it('meets a bound the recorded figures meet exactly, whatever floating point makes of their quotient', () => {
    // CPU per round is recorded to 10 ms: 1.11 / 0.74 is 1.5 (1.5000000000000002 in floating point).
    const exact = ratioCheck('10000×1000', 'server CPU per round', 1.11, 0.74, 1.5, 2);
    expect(exact.met).toBe(true);
    expect(exact.text).toBe('10000×1000: server CPU per round ≤ 1.5× baseline (1.11 / 0.74 = 1.50×)');
    expect(ratioCheck('x', 'server CPU per round', 1.12, 0.74, 1.5, 2).met).toBe(false);
  });

  it('shows a ratio just over its bound as over it, not as the bound', () => {
    // 1.64 / 1.09 = 1.5046: two decimals read "1.50", which looked met.
    const missed = ratioCheck('10000×1000', 'server CPU per round', 1.64, 1.09, 1.5, 2);
    expect(missed.met).toBe(false);
    expect(missed.text).toBe('10000×1000: server CPU per round ≤ 1.5× baseline (1.64 / 1.09 = 1.505×)');
  });

  it('keeps two decimals where they tell the outcome', () => {
    expect(ratioCheck('x', 'fan-out p99', 37.4, 39.2, 1.5).text).toBe('x: fan-out p99 ≤ 1.5× baseline (37.4 / 39.2 = 0.95×)');
    const atBound = ratioCheck('x', 'results p99', 1.4996, 1, 1.5, 4);
    expect(atBound.met).toBe(true);
    expect(atBound.text).toBe('x: results p99 ≤ 1.5× baseline (1.4996 / 1.0000 = 1.50×)');
    expect(ratioCheck('x', 'results p99', 1.56, 1, 1.5).text).toMatch(/= 1\.56×\)$/);
  });

  it('reads every bounded ratio the same way: the first round against the median, three instances against one', () => {
    // The cold-question check (1.3×) and the cluster's fan-out (1.5×) go through the same comparison.
    expect(againstBound(13 / 10, 1.3)).toEqual({ met: true, shown: '1.30×' });
    expect(againstBound(1.3012, 1.3)).toEqual({ met: false, shown: '1.301×' });
    expect(againstBound(1.11 / 0.74, 1.5).met).toBe(true);
  });
});

describe('the results of each round', () => {
  // One game of 10,000 over three rounds: a slow first question makes the pooled p99 on its own.
  const rounds = (p99s: number[]) => ({ perRound: p99s.map((p99) => ({ resultMs: { p99 } })) }) as unknown as TargetResult;

  it("reads the median round's p99 and the first round's against it", () => {
    expect(medianRoundResultP99(rounds([817.4, 331.3, 437.4]))).toBe(437.4);
    expect(medianRoundResultP99(rounds([300, 500]))).toBe(400);
    expect(firstRoundResults(rounds([817.4, 331.3, 437.4]))).toBeCloseTo(817.4 / 437.4, 5);
    expect(firstRoundResults(rounds([400]))).toBeNaN();
    expect(medianRoundResultP99(rounds([]))).toBeNaN();
  });
});

describe("a chain's capacity over a sweep of sizes", () => {
  const result = (fanOut: number, results: number, answersLost = 0) =>
    ({ fanOutMs: { p99: fanOut }, resultMs: { p99: results }, answersLost }) as unknown as TargetResult;
  const sweep = (staggerMs: number, ...entries: [number, number, TargetResult, TargetResult?][]) =>
    ({
      options: { staggerMs },
      scenarios: entries.map(([sessions, phones, marquee, baseline]) => ({ sessions, players: sessions * phones, results: { marquee, baseline }, errors: {} })),
    }) as unknown as BenchReport;

  it('names, for each server, the most sessions whose fan-out and results stayed within 250 ms', () => {
    const table = capacityTable(sweep(1000, [700, 10, result(213.1, 466.0), result(76.3, 84.4)], [500, 10, result(78.9, 34.8), result(5.5, 40.0)], [1000, 10, result(262.2, 445.0), result(43.7, 75.3)]));
    expect(table?.split('\n')).toEqual([
      '| sessions × 10 phones: fan-out / results p99 (ms) | Marquee | baseline |',
      '|---|--:|--:|',
      '| 500 | 78.9 / 34.8 | 5.5 / 40.0 |',
      '| 700 | 213.1 / 466.0 (over) | 76.3 / 84.4 |',
      '| 1000 | 262.2 / 445.0 (over) | 43.7 / 75.3 |',
      '| most sessions within 250 ms | 500 | 1000 |',
    ]);
  });

  it('marks a size that lost answers and one over the limit, and says none when no size was within', () => {
    const table = capacityTable(sweep(1000, [100, 10, result(10, 10, 3)], [200, 10, result(300, 10)]));
    // A Marquee-only sweep: one column.
    expect(table?.split('\n')[0]).toBe('| sessions × 10 phones: fan-out / results p99 (ms) | Marquee |');
    expect(table?.split('\n').slice(2, 4)).toEqual(['| 100 | 10.0 / 10.0 (answers lost) |', '| 200 | 300.0 / 10.0 (over) |']);
    expect(table?.split('\n').at(-1)).toBe('| most sessions within 250 ms | none |');
  });

  it('is left out for one size, for sizes of different games, and outside the chain scenario', () => {
    expect(capacityTable(sweep(1000, [1000, 10, result(1, 1)]))).toBeNull();
    expect(capacityTable(sweep(1000, [500, 10, result(1, 1)], [1000, 5, result(1, 1)]))).toBeNull();
    expect(capacityTable(sweep(0, [1, 500, result(1, 1)], [1, 2000, result(1, 1)]))).toBeNull();
  });
});
