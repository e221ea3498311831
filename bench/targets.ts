/**
 * Starts a measured server in its own process: Marquee (bench/marquee-server.ts →
 * dist/server/main.js, the build `npm start` runs, rebuilt first when older than its sources; on
 * SQLite in a fresh temp dir) or the baseline (from its TypeScript source, through tsx's loader).
 * stdout/stderr go straight to a log file. The process is plain `node`, so its pid is the server's
 * pid for /proc readings.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildServerIfStale } from '../scripts/build.mjs';
import type { TargetName } from './ipc.js';
import { nodeCommand } from './open-files.js';
import type { ProbeReply, ProbeRequest } from './probe.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
export const ADMIN_PASSWORD = 'bench-password-123';

export interface RunningTarget {
  name: TargetName;
  pid: number;
  baseUrl: string;
  logPath: string;
  port: number;
  dataDir: string;
  /** Sends a signal (SIGKILL: a crash) and resolves when the process is gone; the data stays. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Reads (and optionally resets) the event-loop delay window, after an optional forced GC. */
  probe(options: Omit<ProbeRequest, 'type' | 'id'>): Promise<ProbeReply>;
  stop(): Promise<void>;
}

export interface TargetOptions {
  logDir: string;
  /** Write a V8 CPU profile of the server's measured rounds into this folder (see probe.ts). */
  cpuProfileDir?: string;
  /** Write a sampled allocation profile of the measured rounds into this folder (see probe.ts). */
  allocProfileDir?: string;
  label: string;
  /** Open files the server needs (one per socket, plus spare): its limit is raised to this. */
  openFiles: number;
  /** More environment (the cluster's instances: DATABASE_URL, REDIS_URL, ...). */
  env?: Record<string, string>;
  /** Restart on an earlier server's port and data (the restart scenario); that data is then left in place by `stop`. */
  reuse?: { port: number; dataDir: string };
  /** Called right after the process is spawned, before it listens (the restart scenario watches its port from then on). */
  onSpawned?: (target: Pick<RunningTarget, 'probe'>) => void;
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

/** Marquee's variables from the caller's shell must not leak in: the bench always measures SQLite. */
function cleanEnv(): NodeJS.ProcessEnv {
  const drop = /^(PORT|HOST|DATA_DIR|DATABASE_|REDIS_|INSTANCE_ID|ADMIN_|PUBLIC_URL|SECRET|JOIN_LINK_|REQUIRE_SIGNED_JOIN|TRUST_PROXY|REGISTRATION_LIMIT|DEMO_CONTENT|S3_|LOG_LEVEL|METRICS_|RTC_|NODE_OPTIONS)/;
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !drop.test(key)));
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitUntilListening(child: ChildProcess, baseUrl: string, logPath: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before listening:\n${tail(logPath)}`);
    try {
      await fetch(`${baseUrl}/api/public-url`); // any HTTP answer means it is listening
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`server did not listen within ${READY_TIMEOUT_MS / 1000} s:\n${tail(logPath)}`);
}

/**
 * The Node.js flags of `npm start` (package.json's start script, `node <flags> scripts/start.mjs`):
 * Marquee is measured as it is run. The baseline, a bare ws server, runs on Node's defaults.
 */
export function startScriptFlags(start: string = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts.start): string[] {
  const match = /^node((?: --[\w-]+(?:=\S+)?)*) scripts\/start\.mjs$/.exec(start);
  if (!match) throw new Error(`package.json's start script is not "node [flags] scripts/start.mjs": ${start}`);
  return match[1].split(' ').filter(Boolean);
}

export async function startTarget(name: TargetName, options: TargetOptions): Promise<RunningTarget> {
  const port = options.reuse?.port ?? (await freePort());
  const dataDir = options.reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `marquee-bench-${name}-`));
  fs.mkdirSync(options.logDir, { recursive: true });
  const logPath = path.join(options.logDir, `${options.label}-${name}.log`);
  const log = fs.openSync(logPath, options.reuse ? 'a' : 'w');
  const script = name === 'baseline' ? 'bench/baseline-server.ts' : 'bench/marquee-server.ts';
  let profilePath: string | undefined;
  if (options.cpuProfileDir) {
    fs.mkdirSync(options.cpuProfileDir, { recursive: true });
    profilePath = path.join(options.cpuProfileDir, `${options.label}-${name}.cpuprofile`);
  }
  let allocPath: string | undefined;
  if (options.allocProfileDir) {
    fs.mkdirSync(options.allocProfileDir, { recursive: true });
    allocPath = path.join(options.allocProfileDir, `${options.label}-${name}.heapprofile`);
  }
  // What operators run: tsx's transform (esbuild, names kept on every closure) costs a few per cent
  // of a round's CPU that the built server does not (docs/PERFORMANCE.md, session 48).
  if (name !== 'baseline') buildServerIfStale((line) => fs.writeSync(log, `${line}\n`));
  const flags = name === 'baseline' ? [] : startScriptFlags();
  const { command, args } = nodeCommand([...flags, '--import', 'tsx', '--expose-gc', script], options.openFiles);
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: {
      ...cleanEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      REQUIRE_SIGNED_JOIN: 'false',
      // Thousands of bench players register from 127.0.0.1 (the flood scenario turns it back on).
      REGISTRATION_LIMIT: 'off',
      // The measured server holds only the bench's own sessions.
      DEMO_CONTENT: 'false',
      ...(profilePath ? { BENCH_CPU_PROFILE: profilePath } : {}),
      ...(allocPath ? { BENCH_ALLOC_PROFILE: allocPath } : {}),
      ...options.env,
    },
    stdio: ['ignore', log, log, 'ipc'],
  });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let probeSeq = 0;
  const pending = new Map<number, (reply: ProbeReply) => void>();
  child.on('message', (raw) => {
    const reply = raw as ProbeReply;
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    if (!options.reuse) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const probe: RunningTarget['probe'] = (request) =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error(`the ${name} server is gone:\n${tail(logPath)}`));
      const message: ProbeRequest = { type: 'probe', id: ++probeSeq, ...request };
      pending.set(message.id, resolve);
      child.send(message);
    });
  options.onSpawned?.({ probe });
  try {
    await waitUntilListening(child, baseUrl, logPath);
  } catch (err) {
    await stop();
    throw err;
  }
  return { name, pid: child.pid!, baseUrl, logPath, port, dataDir, kill, stop, probe };
}
