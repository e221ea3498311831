import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../server/testing/databases.js';
import { formatCommitCost, measureCommitCost, parseCommitCostArgs } from './commit-cost.js';

describe('bench/commit-cost.ts', () => {
  it('reads its options and refuses what it does not know', () => {
    expect(parseCommitCostArgs(['--sessions', '20', '--phones', '5', '--per-commit', '4', '--rounds', '2', '--postgres'])).toEqual({
      sessions: 20,
      phones: 5,
      perCommit: 4,
      rounds: 2,
      dialect: 'postgres',
    });
    expect(parseCommitCostArgs([])).toMatchObject({ sessions: 1000, phones: 10, dialect: 'sqlite' });
    expect(() => parseCommitCostArgs(['--sessions', '0'])).toThrow(/usage/);
    expect(() => parseCommitCostArgs(['--answers', '3'])).toThrow(/usage/);
  });

  it.each(DIALECTS)('commits every answer of a small chain on %s, and gives each kind of commit its CPU per answer', async (dialect) => {
    const options = { sessions: 5, phones: 3, perCommit: 2, rounds: 2, dialect };
    const cost = await measureCommitCost(options);
    // Every answer of every round ends in `answers` (on SQLite through the log and its settle).
    expect(cost.answersStored).toBe(5 * 3 * 2);
    for (const figure of [cost.answers, cost.close, cost.settle, cost.quiet]) expect(figure).toBeGreaterThan(0);
    const report = formatCommitCost(options, cost);
    expect(report).toMatch(new RegExp(`5 sessions × 3 phones on ${dialect}[^]*30 answers stored`));
    expect(report).toContain(`over the settle: its answer's commit ${(cost.answers / cost.settle).toFixed(3)}, its close ${(cost.close / cost.settle).toFixed(3)}`);
  });
});
