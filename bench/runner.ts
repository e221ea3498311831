/**
 * The bench: for each scenario (N phones over S sessions), Marquee then the baseline, one at a
 * time, each in a fresh server process driven by a fresh generator process. The runner relays the
 * generator's probes to the server (RSS and CPU from /proc, event-loop delay from the server's
 * probe) and collects the figures.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { GeneratorConfig, GeneratorMessage, RunnerMessage, TargetName, TargetResult } from './ipc.js';
import { descriptorsFor, nodeCommand } from './open-files.js';
import { openFilesLimit, readCpuSeconds, readMainThreadCpuSeconds, readMainThreadWaitSeconds, readRssKb, readWriteSyscalls, type OpenFilesLimit } from './proc-stats.js';
import { ADMIN_PASSWORD, REPO_ROOT, startTarget, type RunningTarget } from './targets.js';
import { type RelayCounters, type RunningCluster, startCluster } from './cluster-target.js';
import { CHECKS_PER_INTERVAL, DEFAULT_HEARTBEAT } from '../server/transport/ws/heartbeat.js';

export interface Scenario {
  players: number;
  sessions: number;
}

export interface BenchOptions {
  scenarios: Scenario[];
  targets: TargetName[];
  rounds: number;
  warmupRounds: number;
  answerWindowMs: number;
  settleMs: number;
  /** Where logs, profiles and results.json go. */
  outDir: string;
  cpuProfile: boolean;
  /** Sample the servers' allocations over the measured rounds (`<scenario>-<target>.heapprofile`, see probe.ts). */
  allocProfile?: boolean;
  /** Operators' Next presses spread over this long (the `many` scenario: 1 s). */
  staggerMs: number;
  /** Idle CPU measured over this long once every phone is connected (0: not measured). */
  idleMs: number;
  /** The cluster target ends with the failover step (bench/failover.ts). */
  failover: boolean;
  log: (line: string) => void;
}

export interface ScenarioResult extends Scenario {
  results: Partial<Record<TargetName, TargetResult>>;
  errors: Partial<Record<TargetName, string>>;
}

export interface BenchReport {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; node: string; openFilesLimit: OpenFilesLimit };
  options: Omit<BenchOptions, 'log'>;
  scenarios: ScenarioResult[];
}

export const DEFAULT_SCENARIOS: Scenario[] = [
  { players: 500, sessions: 1 },
  { players: 2000, sessions: 1 },
  { players: 5000, sessions: 5 },
  { players: 10000, sessions: 1 },
];

/** `npm run bench -- many`: a chain's evening, 1,000 sessions of 10 phones. */
export const MANY_SCENARIO: Scenario = { players: 10_000, sessions: 1_000 };
/**
 * One whole heartbeat cycle: a silent socket is pinged at the first check (every 5 s) once it has
 * been silent 20 s, so the pings of a socket come 25 s apart under either server's rule, and any
 * window this long that starts after everyone connected holds exactly one ping per socket. A
 * 20 s window held one or none depending on where the checks fell (the idle ratio was 1.1-1.3x
 * or 1.8-1.9x from run to run).
 */
export const MANY_IDLE_MS = DEFAULT_HEARTBEAT.pingIntervalMs * (1 + 1 / CHECKS_PER_INTERVAL);

/** The generator gives up on a run after this long in total (everything stops by itself). */
function generatorDeadlineMs(config: GeneratorConfig): number {
  const failoverMs = config.failover ? 120_000 : 0;
  return 120_000 + failoverMs + config.idleMs + config.sessions * 100 + config.players * 20 + (config.warmupRounds + config.rounds) * (config.roundTimeoutMs + config.settleMs + 20_000);
}

function runGenerator(server: RunningTarget | RunningCluster, config: GeneratorConfig, log: (line: string) => void): Promise<TargetResult> {
  const cluster = 'relayCounters' in server ? server : undefined;
  let relayAtStart: RelayCounters | undefined;
  let relayPerRound: Pick<TargetResult, 'redisCommandsPerRound' | 'relayPerRound'> | undefined;
  let leaseMs: Promise<number | null> = Promise.resolve(null);
  let counting: Promise<void> = Promise.resolve();
  // The generator holds every phone's socket plus an admin and a display per session.
  const { command, args } = nodeCommand(['--expose-gc', '--import', 'tsx', 'bench/generator.ts'], descriptorsFor(config.players + 2 * config.sessions));
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const tell = (message: RunnerMessage) => child.connected && child.send(message);
  return new Promise<TargetResult>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, result?: TargetResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (child.exitCode === null) child.kill('SIGTERM');
      if (err) reject(err);
      else resolve(result!);
    };
    const deadline = setTimeout(() => finish(new Error('the generator ran past its deadline')), generatorDeadlineMs(config));
    child.on('message', (raw) => {
      const message = raw as GeneratorMessage;
      switch (message.type) {
        case 'progress':
          log(`    ${config.target}: ${message.text}`);
          break;
        case 'result': {
          const result = { ...message.result, ...relayPerRound };
          if (!result.failover) finish(null, result);
          else void leaseMs.then((ms) => finish(null, { ...result, failover: { ...result.failover!, leaseMs: ms } }));
          break;
        }
        case 'kill-owner':
          if (!cluster) {
            tell({ type: 'killed', id: message.id, instanceIndex: -1, instanceId: '', error: 'only the cluster target has an owner to kill' });
            break;
          }
          cluster.killOwner(message.sessionIds).then(
            (killed) => {
              leaseMs = killed.leaseMs;
              tell({ type: 'killed', id: message.id, instanceIndex: killed.instanceIndex, instanceId: killed.instanceId });
            },
            (err: Error) => tell({ type: 'killed', id: message.id, instanceIndex: -1, instanceId: '', error: err.message }),
          );
          break;
        case 'failed':
          finish(new Error(message.message));
          break;
        case 'probe':
          // The cluster's relay is counted over the measured rounds only (read before the probe
          // is answered, so no round starts before the first reading).
          counting = !cluster || !message.rounds
            ? Promise.resolve()
            : cluster.relayCounters().then((c) => {
                if (message.rounds === 'start') relayAtStart = c;
                else if (relayAtStart) relayPerRound = relayRounds(relayAtStart, c, config.rounds);
              });
          counting
            .then(() => server.probe({ gc: message.gc, resetEventLoop: message.resetEventLoop, rounds: message.rounds, markRound: message.markRound, window: message.window }))
            .then(({ eventLoop, heapUsedKb }) => {
              const reading = { rssKb: readRssKb(server.pid), heapUsedKb, cpuSeconds: readCpuSeconds(server.pid), mainThreadCpuSeconds: readMainThreadCpuSeconds(server.pid), mainThreadWaitSeconds: readMainThreadWaitSeconds(server.pid), writeSyscalls: readWriteSyscalls(server.pid), eventLoop };
              tell({ type: 'probe', id: message.id, reading });
            })
            .catch((err: Error) => finish(err));
          break;
      }
    });
    child.on('exit', (code) => finish(new Error(`the generator exited (code ${code}) without a result`)));
    tell({ type: 'run', config });
  });
}

const perRound = (delta: number, rounds: number) => Math.round((delta / rounds) * 10) / 10;

/** The relay's counters between two readings, per round. */
function relayRounds(before: RelayCounters, after: RelayCounters, rounds: number): Pick<TargetResult, 'redisCommandsPerRound' | 'relayPerRound'> {
  const commands: Record<string, number> = {};
  for (const [command, calls] of Object.entries(after.commands)) {
    const delta = perRound(calls - (before.commands[command] ?? 0), rounds);
    if (delta > 0) commands[command] = delta;
  }
  return {
    redisCommandsPerRound: commands,
    relayPerRound: {
      framesReceived: perRound(after.frames.received - before.frames.received, rounds),
      framesUnused: perRound(after.frames.unused - before.frames.unused, rounds),
      personalFramesUnused: perRound(after.frames.unusedPersonal - before.frames.unusedPersonal, rounds),
      redisOutputKb: perRound((after.outputBytes - before.outputBytes) / 1024, rounds),
    },
  };
}

export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const logDir = path.join(options.outDir, 'logs');
  const profileDir = path.join(options.outDir, 'profiles');
  const limit = openFilesLimit();
  const { log: _log, ...recorded } = options;
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    machine: { cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model ?? 'unknown', node: process.version, openFilesLimit: limit },
    options: recorded,
    scenarios: [],
  };
  for (const scenario of options.scenarios) {
    // Each process holds one descriptor per socket; the children's limits are raised as needed.
    const { problem } = nodeCommand([], descriptorsFor(scenario.players + 2 * scenario.sessions), limit);
    if (problem) options.log(`  ${scenario.players}x${scenario.sessions}: the open-files limit is too low: ${problem}`);
    const label = `${scenario.players}x${scenario.sessions}`;
    const entry: ScenarioResult = { ...scenario, results: {}, errors: {} };
    report.scenarios.push(entry);
    for (const target of options.targets) {
      options.log(`  ${label} ${target}: starting`);
      let server: RunningTarget | RunningCluster | undefined;
      try {
        const targetOptions = { logDir, cpuProfileDir: options.cpuProfile ? profileDir : undefined, allocProfileDir: options.allocProfile ? profileDir : undefined, label, openFiles: descriptorsFor(scenario.players + 2 * scenario.sessions) };
        server = target === 'cluster' ? await startCluster(targetOptions) : await startTarget(target, targetOptions);
        entry.results[target] = await runGenerator(
          server,
          {
            target,
            baseUrl: server.baseUrl,
            adminPassword: ADMIN_PASSWORD,
            players: scenario.players,
            sessions: scenario.sessions,
            rounds: options.rounds,
            warmupRounds: options.warmupRounds,
            answerWindowMs: options.answerWindowMs,
            roundTimeoutMs: options.answerWindowMs + 15_000,
            settleMs: options.settleMs,
            registerConcurrency: 64,
            connectConcurrency: 100,
            setupConcurrency: 32,
            staggerMs: options.staggerMs,
            idleMs: options.idleMs,
            seed: 7,
            runTag: randomBytes(4).toString('hex'),
            socketUrls: target === 'cluster' ? (server as RunningCluster).socketUrls : undefined,
            failover: target === 'cluster' && options.failover,
          },
          options.log,
        );
      } catch (err) {
        entry.errors[target] = err instanceof Error ? err.message : String(err);
        options.log(`  ${label} ${target}: FAILED: ${entry.errors[target]}`);
      } finally {
        await server?.stop();
      }
    }
  }
  fs.mkdirSync(options.outDir, { recursive: true });
  fs.writeFileSync(path.join(options.outDir, 'results.json'), JSON.stringify(report, null, 2) + '\n');
  return report;
}
