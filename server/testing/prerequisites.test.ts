import { describe, expect, it } from 'vitest';
import {
  PrerequisiteError,
  SYSTEM_TOOLS,
  checkServices,
  chromiumTool,
  ensureSystemTools,
  isDebianLike,
  realHost,
  type Host,
  type SystemTool,
} from './prerequisites.js';

const CHROMIUM: SystemTool = chromiumTool('/usr/bin/chromium-headless-shell');
const NGINX: SystemTool = { name: 'nginx', binary: '/usr/sbin/nginx', packages: ['nginx'], pathVariable: 'NGINX_BINARY' };
const FULL_CHROMIUM = chromiumTool('/usr/bin/chromium');
const TOOLS = [CHROMIUM, NGINX];

/** A machine on paper: which files exist, who we are, and what apt does when asked. */
function fakeHost(options: { present?: string[]; root?: boolean; osRelease?: string; aptExit?: number; aptDelivers?: boolean } = {}) {
  const files = new Set(options.present ?? ['/usr/bin/apt-get']);
  const commands: string[] = [];
  const lines: string[] = [];
  const host: Host = {
    exists: (file) => files.has(file),
    isRoot: () => options.root ?? true,
    osRelease: () => options.osRelease ?? 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n',
    run: (command, args, env) => {
      commands.push([command, ...args].join(' '));
      expect(env).toMatchObject({ DEBIAN_FRONTEND: 'noninteractive' });
      const exit = options.aptExit ?? 0;
      if (exit === 0 && args[0] === 'install' && options.aptDelivers !== false) {
        for (const tool of [...TOOLS, FULL_CHROMIUM]) if (tool.packages.every((p) => args.includes(p))) files.add(tool.binary);
      }
      return exit;
    },
    log: (line) => lines.push(line),
  };
  return { host, files, commands, lines };
}

function failure(run: () => void): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(PrerequisiteError);
    return (err as Error).message;
  }
  throw new Error('expected the check to stop the run');
}

describe('Chromium and nginx before the suites', () => {
  it('does nothing when both are there', () => {
    const { host, commands, lines } = fakeHost({ present: ['/usr/bin/apt-get', CHROMIUM.binary, NGINX.binary] });
    ensureSystemTools(host, TOOLS);
    expect(commands).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('installs what is missing with apt when root on Debian, and says so', () => {
    const { host, files, commands, lines } = fakeHost({ present: ['/usr/bin/apt-get', CHROMIUM.binary] });
    ensureSystemTools(host, TOOLS);
    expect(commands).toEqual(['apt-get update -qq', 'apt-get install -y -qq nginx']);
    expect(files.has(NGINX.binary)).toBe(true);
    expect(lines).toEqual(['Installing nginx for the tests (missing: nginx (/usr/sbin/nginx))...']);
  });

  it('installs both in one apt run on Ubuntu and its derivatives', () => {
    const { host, commands } = fakeHost({ osRelease: 'ID=linuxmint\nID_LIKE="ubuntu debian"\n' });
    ensureSystemTools(host, TOOLS);
    expect(commands).toEqual(['apt-get update -qq', 'apt-get install -y -qq chromium-headless-shell fonts-dejavu-core nginx']);
  });

  it('stops at once with one line naming the packages and the command when not root', () => {
    const { host, commands } = fakeHost({ root: false });
    const line = failure(() => ensureSystemTools(host, TOOLS));
    expect(line).toBe(
      "The tests need Chromium (/usr/bin/chromium-headless-shell) and nginx (/usr/sbin/nginx): install Debian's packages with `sudo apt-get install -y chromium-headless-shell fonts-dejavu-core nginx`, or set CHROMIUM_PATH / NGINX_BINARY to their binary.",
    );
    expect(commands).toEqual([]);
  });

  it('stops with the command (no sudo) when root on a system without apt', () => {
    const { host, commands } = fakeHost({ present: [CHROMIUM.binary], osRelease: 'ID=fedora\n' });
    const line = failure(() => ensureSystemTools(host, TOOLS));
    expect(line).toBe("The tests need nginx (/usr/sbin/nginx): install Debian's package with `apt-get install -y nginx`, or set NGINX_BINARY to its binary.");
    expect(commands).toEqual([]);
  });

  it('stops with one line when apt fails or installs no binary', () => {
    const failed = fakeHost({ present: ['/usr/bin/apt-get', CHROMIUM.binary], aptExit: 100 });
    expect(failure(() => ensureSystemTools(failed.host, TOOLS))).toBe('`apt-get update` failed (exit 100) while installing nginx for the tests.');
    const empty = fakeHost({ present: ['/usr/bin/apt-get', NGINX.binary], aptDelivers: false });
    expect(failure(() => ensureSystemTools(empty.host, TOOLS))).toBe(
      'apt-get installed chromium-headless-shell fonts-dejavu-core but Chromium (/usr/bin/chromium-headless-shell) is still missing: set CHROMIUM_PATH.',
    );
  });

  it('installs the full browser when CHROMIUM_PATH names it', () => {
    const { host, files, commands } = fakeHost({ present: ['/usr/bin/apt-get', NGINX.binary] });
    ensureSystemTools(host, [FULL_CHROMIUM, NGINX]);
    expect(commands).toEqual(['apt-get update -qq', 'apt-get install -y -qq chromium fonts-dejavu-core']);
    expect(files.has('/usr/bin/chromium')).toBe(true);
    expect(files.has(CHROMIUM.binary)).toBe(false);
  });

  it('recognises Debian-like systems from os-release', () => {
    expect(isDebianLike('ID=debian\n')).toBe(true);
    expect(isDebianLike('ID=ubuntu\nID_LIKE=debian\n')).toBe(true);
    expect(isDebianLike('ID="pop"\nID_LIKE="ubuntu debian"\n')).toBe(true);
    expect(isDebianLike('ID=fedora\nID_LIKE="rhel centos"\n')).toBe(false);
    expect(isDebianLike('')).toBe(false);
  });

  it('finds both on this machine and installs nothing', () => {
    const commands: string[] = [];
    ensureSystemTools({ ...realHost, run: (command, args) => (commands.push([command, ...args].join(' ')), 1) }, SYSTEM_TOOLS);
    expect(commands).toEqual([]);
    for (const tool of SYSTEM_TOOLS) expect(realHost.exists(tool.binary)).toBe(true);
  });
});

describe('PostgreSQL and Redis before the suites', () => {
  it('pass when they answer (this machine)', async () => {
    await expect(checkServices()).resolves.toBeUndefined();
  });

  it('stop with one line naming the address tried and the variable to set', async () => {
    const refused = Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')], ''), { code: 'ECONNREFUSED' });
    const services = [
      { name: 'PostgreSQL', url: 'postgres://marquee:hunter2@db.example:5432/test', variable: 'TEST_DATABASE_URL', check: () => Promise.reject(new Error('PostgreSQL is required', { cause: refused })) },
      { name: 'Redis', url: 'redis://127.0.0.1:6379', variable: 'TEST_REDIS_URL', check: () => Promise.resolve() },
    ];
    await expect(checkServices(services)).rejects.toThrow(
      new PrerequisiteError(
        'PostgreSQL did not answer at postgres://marquee:***@db.example:5432/test (connect ECONNREFUSED ::1:5432, connect ECONNREFUSED 127.0.0.1:5432): start it, or set TEST_DATABASE_URL to one that runs.',
      ),
    );
  });

  it('names the Redis address when nothing listens there', async () => {
    const { checkRedis } = await import('./redis.js');
    const services = [{ name: 'Redis', url: 'redis://127.0.0.1:1', variable: 'TEST_REDIS_URL', check: () => checkRedis('redis://127.0.0.1:1') }];
    await expect(checkServices(services)).rejects.toThrow(/^Redis did not answer at redis:\/\/127\.0\.0\.1:1 \(connect ECONNREFUSED 127\.0\.0\.1:1\): start it, or set TEST_REDIS_URL/);
  });
});
