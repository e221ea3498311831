import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatPairs, parsePairsArgs, type PairFigures, runPairs } from './pairs.js';
import { REPO_ROOT } from './targets.js';

describe('npm run bench -- pairs: its arguments', () => {
  it('takes two revisions, a count and the bench arguments after --', () => {
    expect(parsePairsArgs(['HEAD~1', 'WORKTREE', '--count', '4', '--', 'many', '--targets', 'marquee'])).toEqual({
      old: 'HEAD~1',
      new: 'WORKTREE',
      count: 4,
      benchArgs: ['many', '--targets', 'marquee'],
    });
    expect(parsePairsArgs(['a', 'b']).count).toBe(3);
  });

  it('refuses one revision, a count that is not a positive whole number, an unknown option and a bench command that writes no results.json', () => {
    expect(() => parsePairsArgs(['HEAD'])).toThrow(/usage/);
    expect(() => parsePairsArgs(['a', 'b', '--count', '0'])).toThrow(/usage/);
    expect(() => parsePairsArgs(['a', 'b', '--count', 'x'])).toThrow(/usage/);
    expect(() => parsePairsArgs(['a', 'b', '--rounds', '2'])).toThrow(/usage/);
    expect(() => parsePairsArgs(['a', 'b', '--', 'rooms'])).toThrow(/main bench/);
  });
});

describe('npm run bench -- pairs: its table', () => {
  const figures = (cpu: number, results: number): PairFigures => ({
    fanOutP99Ms: 10,
    resultP99Ms: results,
    acceptedP99Ms: 5,
    serverCpuSecondsPerRound: cpu,
    generatorCpuSecondsPerRound: 1,
  });

  it('shows each pair, the medians over the pairs and in how many the new version was lower', () => {
    const key = '10000x1000 marquee';
    const table = formatPairs({ old: 'HEAD~1', new: 'HEAD' }, [
      { old: { [key]: figures(2.0, 300) }, new: { [key]: figures(1.8, 320) } },
      { old: { [key]: figures(2.2, 500) }, new: { [key]: figures(2.1, 250) } },
      { old: { [key]: figures(1.9, 400) }, new: { [key]: figures(2.0, 200) } },
    ]);
    expect(table).toContain('10000x1000 marquee: HEAD~1 / HEAD');
    expect(table).toContain('| server CPU per round (s) | 2 / 1.8, 2.2 / 2.1, 1.9 / 2 | 2 / 2 | 2 of 3 |');
    expect(table).toContain('| result after end p99 (ms) | 300 / 320, 500 / 250, 400 / 200 | 400 / 250 | 2 of 3 |');
    expect(table).toContain('| fan-out p99 (ms) | 10 / 10, 10 / 10, 10 / 10 | 10 / 10 | 0 of 3 |');
  });
});

describe('npm run bench -- pairs, one pair of 30 phones', () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-pairs-test-'));
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  // Two builds of the server (one per worktree) and two bench runs: minutes on a busy machine.
  it('runs both versions in worktrees of their own, reports the pair and leaves no worktree behind', { timeout: 300_000 }, async () => {
    const status = () => execFileSync('git', ['status', '--porcelain'], { cwd: REPO_ROOT, encoding: 'utf8' });
    const before = status();
    const lines: string[] = [];
    const table = await runPairs(
      { old: 'HEAD', new: 'WORKTREE', count: 1, benchArgs: ['30', '--targets', 'marquee', '--rounds', '1', '--answer-window', '300'] },
      outDir,
      (line) => lines.push(line),
    );
    expect(table).toMatch(/^30x1 marquee: HEAD \/ WORKTREE/);
    expect(table).toMatch(/\| server CPU per round \(s\) \| [\d.]+ \/ [\d.]+ \|/);
    expect(lines.filter((line) => /^ {2}(old|new): 30x1 marquee: fan-out p99/.test(line))).toHaveLength(2);

    const written = JSON.parse(fs.readFileSync(path.join(outDir, 'pairs.json'), 'utf8'));
    expect(written.commits.old).toBe(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim());
    expect(written.pairs).toHaveLength(1);
    for (const side of ['old', 'new']) {
      const run = written.pairs[0][side]['30x1 marquee'];
      expect(run.resultP99Ms).toBeGreaterThan(0);
      expect(run.serverCpuSecondsPerRound).toBeGreaterThan(0);
    }
    // Both worktrees are gone, and the checkout (its index and files) is as it was.
    expect(execFileSync('git', ['worktree', 'list'], { cwd: REPO_ROOT, encoding: 'utf8' })).not.toContain('marquee-pairs-');
    expect(status()).toBe(before);
  });
});
