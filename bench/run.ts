/**
 * `npm run bench [-- 500 2000 5000x5] [--rounds 3] [--warmup 0] [--targets marquee,baseline,cluster] [--cpu-prof] [--no-failover]`
 * (`cluster`: three instances on PostgreSQL + Redis, see bench/cluster-target.ts; needs both running.
 * After its measured rounds the owner is SIGKILLed mid-question, bench/failover.ts; `--no-failover` skips that.)
 * Scenarios are N or NxS (N phones over S sessions). Prints the tables and writes
 * .bench/results.json; logs (and profiles with --cpu-prof) go to .bench/.
 * `npm run bench -- restart [2000] [--runs N] [--db sqlite,postgres] [--kill-after 500-1000] [--jitter 3000]
 * [--late 0.1]`: the reconnect storm after a crash (restart.ts, restart-runs.ts), written to
 * .bench/restart.json; exit code 1 when a run forgot a confirmed answer or denied a phone its turn.
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatReport } from './report.js';
import { failedRun, formatRestartRuns, parseRestartArgs, runRestarts } from './restart-runs.js';
import { DEFAULT_SCENARIOS, runBench, type Scenario } from './runner.js';
import { REPO_ROOT } from './targets.js';
import type { TargetName } from './ipc.js';

function parseArgs(argv: string[]) {
  const scenarios: Scenario[] = [];
  let rounds = 3;
  let targets: TargetName[] = ['marquee', 'baseline'];
  let cpuProfile = false;
  let answerWindowMs = 1000;
  let warmupRounds = 0;
  let failover = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--rounds') rounds = Number(argv[++i]);
    else if (arg === '--targets') targets = argv[++i].split(',') as TargetName[];
    else if (arg === '--warmup') warmupRounds = Number(argv[++i]);
    else if (arg === '--cpu-prof') cpuProfile = true;
    else if (arg === '--no-failover') failover = false;
    else if (arg === '--answer-window') answerWindowMs = Number(argv[++i]);
    else {
      const match = /^(\d+)(?:x(\d+))?$/.exec(arg);
      if (!match) throw new Error(`unknown argument ${arg}`);
      scenarios.push({ players: Number(match[1]), sessions: Number(match[2] ?? 1) });
    }
  }
  if (!(rounds >= 1) || targets.some((t) => !['marquee', 'baseline', 'cluster'].includes(t))) throw new Error('bad --rounds or --targets');
  return { scenarios: scenarios.length ? scenarios : DEFAULT_SCENARIOS, rounds, warmupRounds, targets, cpuProfile, answerWindowMs, failover };
}

const outDir = path.join(REPO_ROOT, '.bench');
if (process.argv[2] === 'restart') {
  const options = parseRestartArgs(process.argv.slice(3));
  console.log(`Marquee bench: reconnect storm after a crash, ${options.players} phones, ${options.runs} run(s) on ${options.databases.join(' and ')}`);
  const results = await runRestarts(options, outDir, (line) => console.log(line));
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'restart.json'), JSON.stringify({ startedAt: new Date().toISOString(), options, results }, null, 2) + '\n');
  console.log(`\n${formatRestartRuns(options, results)}\n\nWritten to ${path.relative(process.cwd(), path.join(outDir, 'restart.json'))}`);
  process.exit(Object.values(results).flat().some(failedRun) ? 1 : 0);
}
const args = parseArgs(process.argv.slice(2));
console.log(`Marquee bench: ${args.scenarios.map((s) => `${s.players}x${s.sessions}`).join(', ')}; ${args.rounds} rounds; ${args.targets.join(' + ')}`);
const report = await runBench({ ...args, settleMs: 1500, outDir, log: (line) => console.log(line) });
console.log(`\n${formatReport(report)}\n\nWritten to ${path.relative(process.cwd(), path.join(outDir, 'results.json'))}`);
if (args.cpuProfile) console.log(`CPU profiles in ${path.relative(process.cwd(), path.join(outDir, 'profiles'))}`);
process.exitCode = report.scenarios.some((s) => Object.keys(s.errors).length) ? 1 : 0;
