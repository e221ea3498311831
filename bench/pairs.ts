/**
 * `npm run bench -- pairs <old> <new> [--count 3] -- <bench arguments>`: the same bench run on two
 * versions in alternated pairs, each version in a `git worktree` of its own under the system's temp
 * directory (issue 26, docs/PERFORMANCE.md "Session 54"). `<old>` and `<new>` are revisions, or
 * `WORKTREE` for the checkout's files as they are, uncommitted changes and new files included.
 *
 * Why not run the new version in the checkout, or reuse two worktrees: with the same code on both
 * sides, one directory (the checkout, or one of two worktrees) was 10–25 % slower than the other
 * for a whole set of runs, the server and the load generator alike, and which one changed from
 * set to set (cause not found). So every pair gets two fresh worktrees, and the order flips every
 * pair (old first, then new first).
 *
 * Each side runs its own bench (its `bench/run.ts`, its build: a build per worktree). Per pair and per target this
 * reports what the runs wrote to their `.bench/results.json`: fan-out, results and acceptance p99,
 * CPU per round, the load generator's CPU per round; then the medians over the pairs. Written to
 * `.bench/pairs.json` in the checkout.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile, round } from './stats.js';
import { REPO_ROOT } from './targets.js';

/** What a pair compares, read from one run's results.json for one scenario and target. */
export interface PairFigures {
  fanOutP99Ms: number;
  resultP99Ms: number;
  acceptedP99Ms: number;
  serverCpuSecondsPerRound: number;
  generatorCpuSecondsPerRound: number;
}

const FIGURES: [keyof PairFigures, string][] = [
  ['fanOutP99Ms', 'fan-out p99 (ms)'],
  ['resultP99Ms', 'result after end p99 (ms)'],
  ['acceptedP99Ms', 'answer accepted p99 (ms)'],
  ['serverCpuSecondsPerRound', 'server CPU per round (s)'],
  ['generatorCpuSecondsPerRound', 'load generator CPU per round (s)'],
];

/** One run's figures by "scenario target" (e.g. "10000x1000 marquee"). */
export type RunFigures = Record<string, PairFigures>;

export interface PairsOptions {
  old: string;
  new: string;
  count: number;
  benchArgs: string[];
}

export function parsePairsArgs(argv: string[]): PairsOptions {
  const usage = 'usage: npm run bench -- pairs <old> <new> [--count N] -- <bench arguments>';
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const benchArgs = split === -1 ? [] : argv.slice(split + 1);
  const revisions = own.filter((a, i) => !a.startsWith('--') && own[i - 1] !== '--count');
  const countAt = own.indexOf('--count');
  const count = countAt === -1 ? 3 : Number(own[countAt + 1]);
  if (revisions.length !== 2 || !Number.isInteger(count) || count < 1) throw new Error(usage);
  if (own.some((a) => a.startsWith('--') && a !== '--count')) throw new Error(usage);
  // Only the main bench writes results.json; the other commands measure something else.
  if (['restart', 'flood', 'rooms', 'cluster-idle', 'networks', 'outage', 'pairs'].includes(benchArgs[0] ?? '')) {
    throw new Error(`pairs compares runs of the main bench (N, NxS or many), not "${benchArgs[0]}"`);
  }
  return { old: revisions[0], new: revisions[1], count, benchArgs };
}

/** A results.json's figures for each scenario and target it holds. */
export function figuresOf(results: unknown): RunFigures {
  const out: RunFigures = {};
  const scenarios = (results as { scenarios?: { players: number; sessions: number; results: Record<string, Record<string, unknown>> }[] }).scenarios ?? [];
  for (const scenario of scenarios) {
    for (const [target, r] of Object.entries(scenario.results)) {
      const p99 = (key: string) => (r[key] as { p99: number }).p99;
      out[`${scenario.players}x${scenario.sessions} ${target}`] = {
        fanOutP99Ms: p99('fanOutMs'),
        resultP99Ms: p99('resultMs'),
        acceptedP99Ms: p99('answerAckMs'),
        serverCpuSecondsPerRound: r.serverCpuSecondsPerRound as number,
        generatorCpuSecondsPerRound: r.generatorCpuSecondsPerRound as number,
      };
    }
  }
  return out;
}

/** Nearest rank, as the bench's own p50s: with an even count, the lower of the middle two. */
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

const shown = (n: number) => String(round(n, 2));

/** A table per scenario and target: each pair's old / new, the medians, and in how many pairs new was lower. */
export function formatPairs(options: Pick<PairsOptions, 'old' | 'new'>, pairs: { old: RunFigures; new: RunFigures }[]): string {
  const keys = Object.keys(pairs[0]?.old ?? {}).filter((key) => pairs.every((p) => p.old[key] && p.new[key]));
  const tables = keys.map((key) => {
    const rows = FIGURES.map(([field, label]) => {
      const olds = pairs.map((p) => p.old[key][field]);
      const news = pairs.map((p) => p.new[key][field]);
      const lower = news.filter((n, i) => n < olds[i]).length;
      const each = pairs.map((_, i) => `${shown(olds[i])} / ${shown(news[i])}`).join(', ');
      return `| ${label} | ${each} | ${shown(median(olds))} / ${shown(median(news))} | ${lower} of ${pairs.length} |`;
    });
    return [`${key}: ${options.old} / ${options.new}`, '| figure | each pair | median | new lower in |', '|---|---|--:|--:|', ...rows].join('\n');
  });
  return tables.join('\n\n');
}

function git(repo: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  // Git's notes ("Preparing worktree …") are kept out of the output; a failure carries them.
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * The commit to check out for a revision. WORKTREE: the checkout's files as they are, new ones
 * included (what .gitignore leaves out stays out), as a commit on top of HEAD made through an index
 * of its own: the checkout's index, branch and files are not touched.
 */
function commitOf(repo: string, revision: string): string {
  if (revision !== 'WORKTREE') return git(repo, ['rev-parse', '--verify', `${revision}^{commit}`]);
  const index = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-pairs-index-')), 'index');
  try {
    const env = { ...process.env, GIT_INDEX_FILE: index };
    git(repo, ['add', '--all'], env);
    const tree = git(repo, ['write-tree'], env);
    return git(repo, ['commit-tree', tree, '-p', 'HEAD', '-m', 'bench pairs: the checkout as it is']);
  } finally {
    fs.rmSync(path.dirname(index), { recursive: true, force: true });
  }
}

export interface Side {
  name: 'old' | 'new';
  dir: string;
}

function addWorktree(repo: string, name: Side['name'], commit: string): Side {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `marquee-pairs-${name}-`));
  git(repo, ['worktree', 'add', '--detach', '--force', dir, commit]);
  // The checkout's packages: the same for both sides, installed once.
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { name, dir };
}

function removeWorktree(repo: string, side: Side): void {
  try {
    git(repo, ['worktree', 'remove', '--force', side.dir]);
  } catch {
    fs.rmSync(side.dir, { recursive: true, force: true });
    git(repo, ['worktree', 'prune']);
  }
}

/** How a side is measured: one bench run in its worktree, its figures. */
export type RunSide = (side: Side, benchArgs: string[], log: (line: string) => void) => RunFigures;

/** One run of the side's own bench (its bench/run.ts, its build). */
const runBenchIn: RunSide = (side, benchArgs, log) => {
  const results = path.join(side.dir, '.bench', 'results.json');
  fs.rmSync(results, { force: true });
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...benchArgs], { cwd: side.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (run.status !== 0 || !fs.existsSync(results)) {
    throw new Error(`the ${side.name} side's bench failed (exit ${run.status}): ${(run.stderr || run.stdout).trim().split('\n').slice(-5).join('\n')}`);
  }
  const figures = figuresOf(JSON.parse(fs.readFileSync(results, 'utf8')));
  log(`  ${side.name}: ${Object.entries(figures).map(([key, f]) => `${key}: fan-out p99 ${f.fanOutP99Ms} ms, results p99 ${f.resultP99Ms} ms, CPU ${f.serverCpuSecondsPerRound} s`).join('; ')}`);
  return figures;
};

/** The pairs; `repo` and `runSide` are the checkout and a real bench run unless a test says otherwise. */
export async function runPairs(
  options: PairsOptions,
  outDir: string,
  log: (line: string) => void,
  { repo = REPO_ROOT, runSide = runBenchIn }: { repo?: string; runSide?: RunSide } = {},
): Promise<string> {
  const commits = { old: commitOf(repo, options.old), new: commitOf(repo, options.new) };
  const pairs: { old: RunFigures; new: RunFigures }[] = [];
  for (let i = 0; i < options.count; i++) {
    log(`pair ${i + 1} of ${options.count}`);
    // Fresh worktrees for every pair: one directory stayed 10–25 % slower than another with the
    // same code for a whole set of runs, and which one changed from set to set (PERFORMANCE.md).
    const sides: Side[] = [];
    try {
      sides.push(addWorktree(repo, 'old', commits.old), addWorktree(repo, 'new', commits.new));
      // Old first in odd pairs, new first in even ones.
      const order = i % 2 === 0 ? sides : [...sides].reverse();
      const figures: Partial<Record<Side['name'], RunFigures>> = {};
      for (const side of order) figures[side.name] = runSide(side, options.benchArgs, log);
      pairs.push({ old: figures.old!, new: figures.new! });
    } finally {
      for (const side of sides) removeWorktree(repo, side);
    }
  }
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'pairs.json'), JSON.stringify({ startedAt: new Date().toISOString(), options, commits, pairs }, null, 2) + '\n');
  return formatPairs(options, pairs);
}
