/**
 * `npm run bench -- restart [phones] [--runs N] [--db sqlite,postgres] [--kill-after 500-1000]
 * [--jitter 3000] [--late 0.1]`: the crash of restart.ts played N times on each database, one
 * fresh server (and PostgreSQL schema) per run. One line per run, the full table of the last run
 * of each database, and a verdict: any confirmed answer forgotten, or any phone connected at the
 * crash left without its result, prints a MISSED line and makes the exit code 1.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { BENCH_DATABASE_URL } from './cluster-target.js';
import { DEFAULT_RESTART_OPTIONS, formatRestart, runRestart, type RestartOptions, type RestartResult } from './restart.js';

export type RestartDatabase = 'sqlite' | 'postgres';

export interface RestartRunsOptions extends Omit<RestartOptions, 'env'> {
  players: number;
  runs: number;
  databases: RestartDatabase[];
}

export function parseRestartArgs(argv: string[]): RestartRunsOptions {
  const options: RestartRunsOptions = { ...DEFAULT_RESTART_OPTIONS, players: 2000, runs: 1, databases: ['sqlite'] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--runs') options.runs = Number(value());
    else if (arg === '--db') options.databases = value().split(',') as RestartDatabase[];
    else if (arg === '--kill-after') options.killAfterMs = value().split('-').map(Number) as [number, number];
    else if (arg === '--jitter') options.reconnectJitterMs = Number(value());
    else if (arg === '--late') options.lateShare = Number(value());
    else if (/^\d+$/.test(arg)) options.players = Number(arg);
    else throw new Error(`unknown argument ${arg}`);
  }
  const [minKill, maxKill = minKill] = options.killAfterMs;
  options.killAfterMs = [minKill, maxKill];
  const valid =
    Number.isInteger(options.players) && options.players >= 1 && Number.isInteger(options.runs) && options.runs >= 1 &&
    options.databases.every((d) => d === 'sqlite' || d === 'postgres') && minKill >= 0 && maxKill >= minKill &&
    options.reconnectJitterMs >= 0 && options.lateShare >= 0 && options.lateShare <= 1;
  if (!valid) throw new Error('usage: npm run bench -- restart [phones] [--runs N] [--db sqlite,postgres] [--kill-after MIN-MAX] [--jitter MS] [--late SHARE]');
  return options;
}

/** A fresh schema in the bench's PostgreSQL for one run; dropped afterwards. */
async function withSchema<T>(run: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const schema = `bench_restart_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
    return await run({ DATABASE_URL: BENCH_DATABASE_URL, DATABASE_SCHEMA: schema });
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await admin.end();
  }
}

/** A run failed the contract: a confirmed answer forgotten, or a phone connected at the crash denied its turn. */
export const failedRun = (r: RestartResult) => r.confirmedLost > 0 || r.withoutResult > 0 || r.missedTheQuestion > 0 || r.phonesNotBack > 0;

export async function runRestarts(options: RestartRunsOptions, outDir: string, log: (line: string) => void) {
  const results: Record<string, RestartResult[]> = {};
  for (const database of options.databases) {
    const done: RestartResult[] = (results[database] = []);
    for (let run = 1; run <= options.runs; run++) {
      const label = `restart-${options.players}-${database}-${run}`;
      const play = (env?: Record<string, string>) => runRestart(options.players, outDir, () => undefined, { ...options, env }, label);
      const r = database === 'postgres' ? await withSchema(play) : await play();
      done.push(r);
      log(
        `  ${database} run ${run}/${options.runs}: kill at ${r.killAfterMs} ms, ${r.confirmedBeforeKill} confirmed; ` +
          `confirmed lost ${r.confirmedLost}, without a result ${r.withoutResult}, missed ${r.missedTheQuestion}, not back ${r.phonesNotBack}; ` +
          `99 % back in ${(r.back99Ms / 1000).toFixed(2)} s${failedRun(r) ? '  <-- MISSED' : ''}`,
      );
    }
  }
  return results;
}

export function formatRestartRuns(options: RestartRunsOptions, results: Record<string, RestartResult[]>): string {
  const lines: string[] = [];
  for (const [database, runs] of Object.entries(results)) {
    lines.push(`${database}:`, formatRestart(runs.at(-1)!), '');
  }
  for (const [database, runs] of Object.entries(results)) {
    const sum = (pick: (r: RestartResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
    const failed = runs.filter(failedRun).length;
    lines.push(
      `${database}: ${runs.length} crash runs of ${options.players} phones, kill ${options.killAfterMs.join('–')} ms into the question, ` +
        `${options.reconnectJitterMs > 0 ? `0–${options.reconnectJitterMs} ms reconnect jitter` : "the web client's backoff"}: ` +
        `confirmed answers forgotten ${sum((r) => r.confirmedLost)}, phones without a result ${sum((r) => r.withoutResult)}, ` +
        `missed the question ${sum((r) => r.missedTheQuestion)}, not back ${sum((r) => r.phonesNotBack)}` +
        (failed > 0 ? `\nMISSED on ${database}: ${failed} of ${runs.length} runs denied phones connected at the crash their turn or forgot a confirmed answer` : ''),
    );
  }
  return lines.join('\n');
}
