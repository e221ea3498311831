/**
 * `npm run bench [-- 500 2000 5000x5] [--rounds 3] [--warmup 0] [--targets marquee,baseline,cluster] [--cpu-prof] [--alloc-prof] [--no-failover]`
 * (`cluster`: three instances on PostgreSQL + Redis, see bench/cluster-target.ts; needs both running.
 * After its measured rounds the owner is SIGKILLed mid-question, bench/failover.ts; `--no-failover` skips that.)
 * Scenarios are N or NxS (N phones over S sessions). Prints the tables and writes
 * .bench/results.json; logs (and profiles with --cpu-prof) go to .bench/.
 * `npm run bench -- restart [2000] [--runs N] [--db sqlite,postgres] [--kill-after 500-1000] [--jitter 3000]
 * [--late 0.1]`: the reconnect storm after a crash (restart.ts, restart-runs.ts), written to
 * .bench/restart.json; exit code 1 when a run forgot a confirmed answer or denied a phone its turn.
 * `npm run bench -- flood [100]`: 5,000 registrations and 5,000 socket opens from one address
 * against one session beside honest phones (flood.ts), written to .bench/flood.json.
 * `npm run bench -- many [1000x10] [--targets ...]`: a chain's evening, S sessions of N phones
 * each (default 1,000 × 10), every operator pressing Next within the same second (staggered
 * over it), with idle CPU measured once everyone is connected (docs/PERFORMANCE.md;
 * BASELINE_QUESTION_PINGS=1: the baseline also pings each phone behind every question;
 * BASELINE_COMMITS=1: it commits answers and scores to SQLite before confirming them).
 * `npm run bench -- rooms [1000x10] [--rounds 3]`: the room path alone, no sockets or database
 * (rooms.ts): the process's CPU per round.
 * `npm run bench -- cluster-idle [100,1000]`: Redis commands per second with that many idle live
 * sessions over three instances (cluster-idle.ts), written to .bench/cluster-idle.json.
 * `npm run bench -- networks [400] [--questions 3] [--client old|new|both] [--shaper netns|proxy] [--no-datagram]`:
 * phones on four shaped network profiles (networks.ts), in a network namespace of the bench's own
 * (netns.ts, needs root) or through the userspace TCP proxy fallback, written to .bench/networks.json.
 * `--no-datagram`: the server offers no datagram path (RTC_UDP_PORT=off; the proxy shaper never does).
 * `npm run bench -- outage [200] [postgres-5 postgres-40 disk-5]`: storage faults under a live
 * question (outage.ts), written to .bench/outage.json.
 * `npm run bench -- pairs <old> <new> [--count 3] -- <bench arguments>`: alternated pairs of runs of
 * two versions, each in a worktree of its own (pairs.ts), written to .bench/pairs.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatReport } from './report.js';
import { failedRun, formatRestartRuns, parseRestartArgs, runRestarts } from './restart-runs.js';
import { FLOOD_OUTPUT, formatFlood, runFlood } from './flood.js';
import { formatClusterIdle, runClusterIdle } from './cluster-idle.js';
import { runRoomsBench } from './rooms.js';
import { DEFAULT_SCENARIOS, MANY_IDLE_MS, MANY_SCENARIO, runBench, type Scenario } from './runner.js';
import { NETWORKS_OUT, formatNetworks, runNetworks, type ShaperKind } from './networks-run.js';
import { NAMESPACE_VARIABLE, runInNamespace } from './netns.js';
import { formatOutage, OUTAGE_SCENARIOS, type OutageScenario, runOutage } from './outage.js';
import { REPO_ROOT } from './targets.js';
import { parsePairsArgs, runPairs } from './pairs.js';
import type { TargetName } from './ipc.js';

function parseArgs(argv: string[]) {
  const scenarios: Scenario[] = [];
  let rounds = 3;
  let targets: TargetName[] = ['marquee', 'baseline'];
  let cpuProfile = false;
  let allocProfile = false;
  let answerWindowMs = 1000;
  let warmupRounds = 0;
  let failover = true;
  let many = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const sessionsByPhones = /^(\d+)x(\d+)$/.exec(arg);
    if (arg === 'many') many = true;
    else if (many && sessionsByPhones) {
      // `many` reads SxN as sessions × phones per session (elsewhere NxS is phones over sessions).
      scenarios.push({ players: Number(sessionsByPhones[1]) * Number(sessionsByPhones[2]), sessions: Number(sessionsByPhones[1]) });
    } else if (arg === '--rounds') rounds = Number(argv[++i]);
    else if (arg === '--targets') targets = argv[++i].split(',') as TargetName[];
    else if (arg === '--warmup') warmupRounds = Number(argv[++i]);
    else if (arg === '--cpu-prof') cpuProfile = true;
    else if (arg === '--alloc-prof') allocProfile = true;
    else if (arg === '--no-failover') failover = false;
    else if (arg === '--answer-window') answerWindowMs = Number(argv[++i]);
    else {
      const match = /^(\d+)(?:x(\d+))?$/.exec(arg);
      if (!match) throw new Error(`unknown argument ${arg}`);
      scenarios.push({ players: Number(match[1]), sessions: Number(match[2] ?? 1) });
    }
  }
  if (!(rounds >= 1) || targets.some((t) => !['marquee', 'baseline', 'cluster'].includes(t))) throw new Error('bad --rounds or --targets');
  const defaults = many ? [MANY_SCENARIO] : DEFAULT_SCENARIOS;
  return {
    scenarios: scenarios.length ? scenarios : defaults,
    rounds,
    warmupRounds,
    targets,
    cpuProfile,
    allocProfile,
    answerWindowMs,
    failover,
    // A chain's operators press Next within the same second, not in the same millisecond.
    staggerMs: many ? 1000 : 0,
    idleMs: many ? MANY_IDLE_MS : 0,
  };
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
if (process.argv[2] === 'flood') {
  const honest = Number(process.argv[3] ?? 100);
  if (!Number.isInteger(honest) || honest < 1 || honest > 100) throw new Error('usage: npm run bench -- flood [honest phones, 1-100: one address\'s burst]');
  console.log(`Marquee bench: a bot flood from one address against one session, ${honest} honest phones`);
  const result = await runFlood(honest, outDir, (line) => console.log(line));
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(FLOOD_OUTPUT(outDir), JSON.stringify({ startedAt: new Date().toISOString(), result }, null, 2) + '\n');
  console.log(`\n${formatFlood(result)}\n\nWritten to ${path.relative(process.cwd(), FLOOD_OUTPUT(outDir))}`);
  process.exit(0);
}
if (process.argv[2] === 'rooms') {
  const [sessions, players] = (process.argv[3] && /^\d+x\d+$/.test(process.argv[3]) ? process.argv[3] : '1000x10').split('x').map(Number);
  const rest = process.argv.slice(3);
  const rounds = rest.includes('--rounds') ? Number(rest[rest.indexOf('--rounds') + 1]) : 3;
  if (!(sessions > 0 && players > 0 && rounds > 0)) throw new Error('usage: npm run bench -- rooms [SxN] [--rounds R]');
  console.log(`Marquee bench: the room path alone, ${sessions} rooms × ${players} players, ${rounds} rounds`);
  const result = runRoomsBench(sessions, players, rounds);
  const sorted = [...result.cpuSecondsPerRound].sort((a, b) => a - b);
  console.log(`CPU per round (s): ${result.cpuSecondsPerRound.join(', ')}; median ${sorted[Math.floor(sorted.length / 2)]}`);
  process.exit(0);
}
if (process.argv[2] === 'cluster-idle') {
  const counts = (process.argv[3] ?? '100,1000').split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('usage: npm run bench -- cluster-idle [100,1000]');
  console.log(`Marquee bench: idle Redis traffic over 3 instances, ${counts.join(' and ')} live sessions`);
  const results = await runClusterIdle(counts, outDir, (line) => console.log(line));
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'cluster-idle.json'), JSON.stringify({ startedAt: new Date().toISOString(), results }, null, 2) + '\n');
  console.log(`\n${formatClusterIdle(results)}`);
  process.exit(0);
}
if (process.argv[2] === 'networks') {
  const rest = process.argv.slice(3);
  const flag = (name: string, fallback: string) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : fallback);
  const shaper = flag('--shaper', 'netns') as ShaperKind;
  if (shaper !== 'netns' && shaper !== 'proxy') throw new Error('usage: --shaper netns|proxy');
  // The namespace's shaper: this same command again, inside a namespace of its own.
  if (shaper === 'netns' && !process.env[NAMESPACE_VARIABLE]) process.exit((await runInNamespace()).code);
  const phones = Number(rest.find((a) => /^\d+$/.test(a) && rest[rest.indexOf(a) - 1] !== '--questions') ?? 400);
  const questions = Number(flag('--questions', '3'));
  const kinds = flag('--client', 'both') === 'both' ? (['old', 'new'] as const) : ([flag('--client', 'new')] as ('old' | 'new')[]);
  const datagram = !rest.includes('--no-datagram');
  console.log(
    `Marquee bench: networks, ${phones} phones over wifi/lte/weak/basement (${shaper} shaper), ${questions} questions, client ${kinds.join(' then ')}${datagram ? '' : ', no datagram path'}`,
  );
  const results = [];
  for (const kind of kinds) results.push(await runNetworks(kind, shaper, phones, questions, datagram, outDir, (line) => console.log(line)));
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(NETWORKS_OUT(outDir), JSON.stringify({ startedAt: new Date().toISOString(), results }, null, 2) + '\n');
  console.log(`\n${formatNetworks(results)}\n\nWritten to ${path.relative(process.cwd(), NETWORKS_OUT(outDir))}`);
  process.exit(0);
}
if (process.argv[2] === 'outage') {
  const rest = process.argv.slice(3);
  const players = Number(rest.find((a) => /^\d+$/.test(a)) ?? 200);
  const asked = rest.filter((a) => !/^\d+$/.test(a));
  if (asked.some((a) => !(OUTAGE_SCENARIOS as readonly string[]).includes(a))) throw new Error(`usage: npm run bench -- outage [phones] [${OUTAGE_SCENARIOS.join(' ')}]`);
  const scenarios = (asked.length ? asked : OUTAGE_SCENARIOS) as OutageScenario[];
  console.log(`Marquee bench: storage outages under a live question, ${players} phones: ${scenarios.join(', ')}`);
  const results = [];
  for (const scenario of scenarios) results.push(await runOutage(scenario, players, outDir, (line) => console.log(line)));
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'outage.json'), JSON.stringify({ startedAt: new Date().toISOString(), results }, null, 2) + '\n');
  console.log(`\n${formatOutage(results)}\n\nWritten to ${path.relative(process.cwd(), path.join(outDir, 'outage.json'))}`);
  const failed = results.some((r) => !r.serverAlive || r.confirmedLost > 0 || r.phonesWithoutResult > 0 || r.resultsWrong > 0);
  process.exit(failed ? 1 : 0);
}
if (process.argv[2] === 'pairs') {
  const options = parsePairsArgs(process.argv.slice(3));
  console.log(`Marquee bench: ${options.count} alternated pair(s), ${options.old} / ${options.new}: ${options.benchArgs.join(' ') || '(default scenarios)'}`);
  const table = await runPairs(options, outDir, (line) => console.log(line));
  console.log(`\n${table}\n\nWritten to ${path.relative(process.cwd(), path.join(outDir, 'pairs.json'))}`);
  process.exit(0);
}
const args = parseArgs(process.argv.slice(2));
console.log(`Marquee bench: ${args.scenarios.map((s) => `${s.players}x${s.sessions}`).join(', ')}; ${args.rounds} rounds; ${args.targets.join(' + ')}`);
const report = await runBench({ ...args, settleMs: 1500, outDir, log: (line) => console.log(line) });
console.log(`\n${formatReport(report)}\n\nWritten to ${path.relative(process.cwd(), path.join(outDir, 'results.json'))}`);
if (args.cpuProfile || args.allocProfile) console.log(`Profiles in ${path.relative(process.cwd(), path.join(outDir, 'profiles'))}`);
process.exitCode = report.scenarios.some((s) => Object.keys(s.errors).length) ? 1 : 0;
