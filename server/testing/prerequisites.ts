/**
 * What `npm test` needs from the machine besides node_modules, prepared or reported before any suite
 * starts: Debian's Chromium (browser flows) and nginx (multi-instance tests) are installed with apt
 * when missing and the user is root on Debian/Ubuntu; PostgreSQL and Redis must answer. Anything
 * else stops the run with one line saying what is missing and what to do. Nothing is ever skipped.
 * The machine is reached through `Host`, so the decisions are tested without touching it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { CHROMIUM_PATH } from '../../e2e/support/browser.js';
import { NGINX_BINARY } from '../transport/cluster/testing/nginx.js';
import { TEST_DATABASE_URL, checkPostgres } from './databases.js';
import { TEST_REDIS_URL, checkRedis } from './redis.js';

/** A program the tests run, and the Debian packages that bring it. */
export interface SystemTool {
  name: string;
  binary: string;
  packages: string[];
  /** The variable that points the tests at another binary. */
  pathVariable: string;
}

/** Chromium at `binary`, with the package that installs it (CHROMIUM_PATH=/usr/bin/chromium: the full browser). */
export function chromiumTool(binary: string): SystemTool {
  // Chromium's own dependencies leave out a font: pages would render without text.
  const packages = [binary === '/usr/bin/chromium' ? 'chromium' : 'chromium-headless-shell', 'fonts-dejavu-core'];
  return { name: 'Chromium', binary, packages, pathVariable: 'CHROMIUM_PATH' };
}

export const SYSTEM_TOOLS: SystemTool[] = [
  chromiumTool(CHROMIUM_PATH),
  { name: 'nginx', binary: NGINX_BINARY, packages: ['nginx'], pathVariable: 'NGINX_BINARY' },
];

/** The machine, as the checks see it. */
export interface Host {
  exists(file: string): boolean;
  isRoot(): boolean;
  /** The text of /etc/os-release, or '' without one. */
  osRelease(): string;
  /** Runs a command with its output shown; resolves to its exit code. */
  run(command: string, args: string[], env?: Record<string, string>): number;
  log(line: string): void;
}

/** A missing prerequisite; its message is the one line the run stops with. */
export class PrerequisiteError extends Error {}

export const realHost: Host = {
  exists: (file) => fs.existsSync(file),
  isRoot: () => process.getuid?.() === 0,
  osRelease: () => {
    try {
      return fs.readFileSync('/etc/os-release', 'utf8');
    } catch {
      return '';
    }
  },
  run: (command, args, env) => spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1,
  log: (line) => console.log(line),
};

/** Debian, Ubuntu or a derivative (ID or ID_LIKE in os-release), where the packages have these names. */
export function isDebianLike(osRelease: string): boolean {
  return /^(ID|ID_LIKE)="?[^"\n]*\b(debian|ubuntu)\b/m.test(osRelease);
}

const describe = (tools: SystemTool[]) => tools.map((t) => `${t.name} (${t.binary})`).join(' and ');

/** Installs what is missing when it may (root, apt), else stops with one line saying how. */
export function ensureSystemTools(host: Host, tools: SystemTool[] = SYSTEM_TOOLS): void {
  const missing = tools.filter((t) => !host.exists(t.binary));
  if (missing.length === 0) return;
  const packages = missing.flatMap((t) => t.packages);
  const install = `apt-get install -y ${packages.join(' ')}`;
  const canInstall = host.isRoot() && isDebianLike(host.osRelease()) && host.exists('/usr/bin/apt-get');
  if (!canInstall) {
    const how = host.isRoot() ? install : `sudo ${install}`;
    const elsewhere = missing.map((t) => t.pathVariable).join(' / ');
    throw new PrerequisiteError(
      `The tests need ${describe(missing)}: install Debian's package${packages.length > 1 ? 's' : ''} with \`${how}\`, or set ${elsewhere} to ${missing.length > 1 ? 'their' : 'its'} binary.`,
    );
  }
  host.log(`Installing ${packages.join(' ')} for the tests (missing: ${describe(missing)})...`);
  const quiet = { DEBIAN_FRONTEND: 'noninteractive' };
  const updated = host.run('apt-get', ['update', '-qq'], quiet);
  if (updated !== 0) throw new PrerequisiteError(`\`apt-get update\` failed (exit ${updated}) while installing ${packages.join(' ')} for the tests.`);
  const installed = host.run('apt-get', ['install', '-y', '-qq', ...packages], quiet);
  if (installed !== 0) throw new PrerequisiteError(`\`${install}\` failed (exit ${installed}); the tests need ${describe(missing)}.`);
  const still = missing.filter((t) => !host.exists(t.binary));
  if (still.length > 0) {
    throw new PrerequisiteError(`apt-get installed ${packages.join(' ')} but ${describe(still)} is still missing: set ${still.map((t) => t.pathVariable).join(' / ')}.`);
  }
}

/** A service the suites connect to, and how to point them elsewhere. */
export interface Service {
  name: string;
  url: string;
  variable: string;
  check(): Promise<void>;
}

export const SERVICES: Service[] = [
  { name: 'PostgreSQL', url: TEST_DATABASE_URL, variable: 'TEST_DATABASE_URL', check: () => checkPostgres() },
  { name: 'Redis', url: TEST_REDIS_URL, variable: 'TEST_REDIS_URL', check: () => checkRedis() },
];

/**
 * The connection error under the check's own wrapper. It can be an AggregateError with no message
 * of its own (IPv4 and IPv6 both refused).
 */
function reason(err: unknown): string {
  const outer = err as Error & { cause?: unknown };
  const e = (outer.cause ?? outer) as Error & { code?: string; errors?: Error[] };
  const text = e.errors?.length ? e.errors.map((x) => x.message).join(', ') : e.message || e.code || String(err);
  return text.replace(/\s+/g, ' ').trim();
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Each service must answer; the first that does not stops the run with one line. */
export async function checkServices(services: Service[] = SERVICES): Promise<void> {
  for (const service of services) {
    try {
      await service.check();
    } catch (err) {
      throw new PrerequisiteError(
        `${service.name} did not answer at ${withoutPassword(service.url)} (${reason(err)}): start it, or set ${service.variable} to one that runs.`,
      );
    }
  }
}

/** Everything, in order: programs first (they may need installing), then services. */
export async function preparePrerequisites(host: Host = realHost): Promise<void> {
  ensureSystemTools(host);
  await checkServices();
}

/** For the entry points (pretest, Vitest's global setup): a missing piece ends the process with its line. */
export async function prepareOrExit(host: Host = realHost): Promise<void> {
  try {
    await preparePrerequisites(host);
  } catch (err) {
    if (!(err instanceof PrerequisiteError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
