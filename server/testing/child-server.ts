/**
 * The real server as a child process (`node --import tsx server/main.ts`, exactly what `npm start`
 * runs), on a given database and port, for tests that kill it: SIGKILL (a crash) or SIGTERM (a
 * deploy). Started again on the same port and data, it is what phones find when they come back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { TestDatabase } from './databases.js';
import { TEST_ADMIN } from './server.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const READY_TIMEOUT_MS = 120_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  baseUrl: string;
  process: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Marquee's variables from the caller's environment must not leak into the child. */
function cleanEnv(): NodeJS.ProcessEnv {
  const drop = /^(PORT|HOST|DATA_DIR|DATABASE_|REDIS_|INSTANCE_ID|ADMIN_|PUBLIC_URL|SECRET|JOIN_LINK_|REQUIRE_SIGNED_JOIN|TRUST_PROXY|REGISTRATION_LIMIT|DEMO_CONTENT|S3_|LOG_LEVEL|METRICS_TOKEN|NODE_OPTIONS)/;
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !drop.test(key)));
}

/** Starts the server and resolves once its HTTP port answers; its output goes to `logPath`. */
export async function startChildServer(
  database: TestDatabase,
  port: number,
  logPath: string,
  /** More variables (the multi-instance tests: REDIS_URL, INSTANCE_ID, REDIS_KEY_PREFIX). */
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const log = fs.openSync(logPath, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...cleanEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: database.dataDir,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      ...(database.pgSchema ? { DATABASE_SCHEMA: database.pgSchema } : {}),
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      REQUIRE_SIGNED_JOIN: 'false',
      // Hundreds of test phones register from 127.0.0.1 (the limit's own tests run in process).
      REGISTRATION_LIMIT: 'off',
      DEMO_CONTENT: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ChildServer = {
    baseUrl,
    process: child,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited before listening; see ${logPath}:\n${fs.readFileSync(logPath, 'utf8').slice(-2000)}`);
    }
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.kill('SIGKILL');
      throw new Error(`the server did not listen within ${READY_TIMEOUT_MS / 1000} s; see ${logPath}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Logs in as the test administrator over HTTP; returns the bearer token. */
export async function adminToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: TEST_ADMIN.username, password: TEST_ADMIN.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}
