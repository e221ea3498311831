import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatPairs, parsePairsArgs, type PairFigures, runPairs, type RunSide } from './pairs.js';

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

describe('npm run bench -- pairs: the worktrees and the order', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pairs-test-'));
  const repo = path.join(tmp, 'repo');
  const outDir = path.join(tmp, 'out');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  // A repository of its own: a committed version, then uncommitted changes and a new file. The
  // runner stands in for the bench (a real run is minutes of two builds and two benches): it
  // reads what each side's worktree holds, so the test sees which version ran where, and when.
  it('checks out each version (WORKTREE: the files as they are) in fresh worktrees every pair, flips the order every pair and leaves the checkout as it was', async () => {
    fs.mkdirSync(repo, { recursive: true });
    git('init', '-q');
    git('config', 'user.email', 'bench@example.invalid');
    git('config', 'user.name', 'bench');
    fs.writeFileSync(path.join(repo, 'version.txt'), 'committed\n');
    fs.writeFileSync(path.join(repo, '.gitignore'), 'ignored.txt\n');
    git('add', '.');
    git('commit', '-qm', 'first');
    fs.writeFileSync(path.join(repo, 'version.txt'), 'changed\n');
    fs.writeFileSync(path.join(repo, 'new-file.txt'), 'new\n');
    fs.writeFileSync(path.join(repo, 'ignored.txt'), 'left out\n');
    const statusBefore = git('status', '--porcelain');

    const runs: string[] = [];
    const dirs = new Set<string>();
    const runSide: RunSide = (side, benchArgs) => {
      dirs.add(side.dir);
      const version = fs.readFileSync(path.join(side.dir, 'version.txt'), 'utf8').trim();
      const extra = ['new-file.txt', 'ignored.txt'].filter((f) => fs.existsSync(path.join(side.dir, f)));
      runs.push(`${side.name}:${version}:${extra.join('+') || '-'}:${benchArgs.join(' ')}`);
      expect(path.relative(os.tmpdir(), side.dir).startsWith('marquee-pairs-')).toBe(true);
      const cpu = side.name === 'old' ? 2 : 1.5;
      return { '100x10 marquee': { fanOutP99Ms: 10, resultP99Ms: 20, acceptedP99Ms: 5, serverCpuSecondsPerRound: cpu, generatorCpuSecondsPerRound: 1 } };
    };
    const table = await runPairs({ old: 'HEAD', new: 'WORKTREE', count: 3, benchArgs: ['many', '100x10'] }, outDir, () => {}, { repo, runSide });

    expect(runs).toEqual([
      'old:committed:-:many 100x10',
      'new:changed:new-file.txt:many 100x10',
      'new:changed:new-file.txt:many 100x10',
      'old:committed:-:many 100x10',
      'old:committed:-:many 100x10',
      'new:changed:new-file.txt:many 100x10',
    ]);
    // Two fresh worktrees for every pair.
    expect(dirs.size).toBe(6);
    expect(table).toContain('| server CPU per round (s) | 2 / 1.5, 2 / 1.5, 2 / 1.5 | 2 / 1.5 | 3 of 3 |');
    const written = JSON.parse(fs.readFileSync(path.join(outDir, 'pairs.json'), 'utf8'));
    expect(written.commits.old).toBe(git('rev-parse', 'HEAD'));
    expect(written.pairs).toHaveLength(3);
    // Both worktrees are gone; the checkout's branch, index and files are as they were.
    expect(git('worktree', 'list')).not.toContain('marquee-pairs-');
    expect(git('status', '--porcelain')).toBe(statusBefore);
    expect(git('log', '--format=%s')).toBe('first');
  });

  it('removes the worktrees when a run fails, and says which side failed', async () => {
    const failing: RunSide = (side) => {
      throw new Error(`the ${side.name} side's bench failed (exit 1)`);
    };
    await expect(runPairs({ old: 'HEAD', new: 'HEAD', count: 1, benchArgs: [] }, outDir, () => {}, { repo, runSide: failing })).rejects.toThrow(/old side's bench failed/);
    expect(git('worktree', 'list')).not.toContain('marquee-pairs-');
  });
});
