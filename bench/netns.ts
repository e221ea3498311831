/**
 * The networks bench's own network namespace (`marquee-net-<pid>`), with loopback addresses only:
 * nothing in it can reach another machine. The kernel here has no netem, so delay and loss are
 * played by bench/tun-shaper.py on a TUN device:
 *
 *   phone 127.<10+profile>.x.y ──lo egress── tc u32 + mirred ──▶ TUN ──▶ tun-shaper.py
 *        (drop: loss or signal loss; else wait one-way delay ± jitter) ──▶ TUN ──▶ kernel ──▶ server 127.0.0.1
 *
 * Both directions of a phone's traffic (its address as source or destination) take that path;
 * the server's other traffic (the display, the admin API) stays on plain loopback. `lo` gets a
 * 1500-byte MTU, as a phone's link has, so a question is a few packets, each lost on its own.
 * Packets with 127/8 addresses arriving on a device other than `lo` are martians to the kernel
 * unless that device has route_localnet (loopback addresses routed), accept_local (a local source
 * from outside) and no rp_filter: set inside the namespace only.
 *
 * Needs root, `ip`, `tc` and python3. The bench re-runs itself inside the namespace
 * (`runInNamespace`); the namespace is deleted when it exits, and stale ones (their pid gone) at start.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { NetworkProfile } from '../server/testing/shaped-link.js';

export const NAMESPACE_PREFIX = 'marquee-net-';
/** Set in the re-run bench: the namespace it runs in. */
export const NAMESPACE_VARIABLE = 'MARQUEE_NETNS';
const DEVICE = 'mqshape0';
const PHONE_NET = '127.8.0.0/13'; // 127.8–127.15: profile p's phones are 127.<10+p>.x.y
const SHAPER = path.join(import.meta.dirname, 'tun-shaper.py');

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Deletes namespaces left by bench processes that are gone (a crash, a kill -9). */
export function removeStaleNamespaces(): void {
  for (const line of run('ip', ['netns', 'list']).split('\n')) {
    const name = line.split(' ')[0];
    const pid = Number(name.startsWith(NAMESPACE_PREFIX) ? name.slice(NAMESPACE_PREFIX.length) : NaN);
    if (Number.isInteger(pid) && !fs.existsSync(`/proc/${pid}`)) run('ip', ['netns', 'del', name]);
  }
}

/**
 * Runs `command` (by default this same process's command again) inside a fresh namespace of its
 * own and resolves to its exit code; the namespace is deleted afterwards (and on SIGINT/SIGTERM).
 */
export async function runInNamespace(command = [process.execPath, ...process.execArgv, ...process.argv.slice(1)], stdio: 'inherit' | 'pipe' = 'inherit'): Promise<{ code: number; stdout: string }> {
  if (process.getuid?.() !== 0) throw new Error('the networks bench builds a network namespace: run it as root (or pass --shaper proxy)');
  removeStaleNamespaces();
  const name = `${NAMESPACE_PREFIX}${process.pid}`;
  run('ip', ['netns', 'add', name]);
  const remove = () => {
    try {
      run('ip', ['netns', 'del', name]);
    } catch {
      // already gone
    }
  };
  const onSignal = () => {
    remove();
    process.exit(130);
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const child = spawn('ip', ['netns', 'exec', name, ...command], { stdio: ['ignore', stdio, 'inherit'], env: { ...process.env, [NAMESPACE_VARIABLE]: name } });
    let stdout = '';
    child.stdout?.on('data', (data: Buffer) => (stdout += data.toString()));
    return await new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? 1, stdout })));
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    remove();
  }
}

/** One phone's link: its own source address, of its profile's range. */
export class NamespaceLink {
  private cutOffUntilMs = 0;

  constructor(
    private readonly shaper: PacketShaper,
    readonly profile: NetworkProfile,
    readonly localAddress: string,
  ) {}

  get cutOffNow(): boolean {
    return Date.now() < this.cutOffUntilMs;
  }

  /** When the last loss of signal ended (or ends); 0 without one. */
  get cutOffEndsAtMs(): number {
    return this.cutOffUntilMs;
  }

  /** A loss of signal: every packet of this phone, both ways, is dropped for `ms`. */
  cutOff(ms: number): void {
    this.cutOffUntilMs = Date.now() + ms;
    this.shaper.command(`cut ${this.localAddress} ${Math.round(ms)}`);
  }

  /** Logs this phone's packets (pass/drop) on the shaper's stderr. */
  trace(): void {
    this.shaper.command(`trace ${this.localAddress}`);
  }

  async close(): Promise<void> {}
}

/** The shaper of the namespace this process runs in: `lo`, sysctls, tc and the TUN reader. */
export class PacketShaper {
  private readonly phonesPerProfile = new Map<number, number>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly lines: ReturnType<typeof createInterface>,
    private readonly profiles: NetworkProfile[],
  ) {}

  /** Sets the current namespace up; call only inside one of ours (it changes `lo`). */
  static async start(profiles: NetworkProfile[], options: { seed?: number; stderr?: (line: string) => void } = {}): Promise<PacketShaper> {
    const namespace = process.env[NAMESPACE_VARIABLE];
    if (!namespace?.startsWith(NAMESPACE_PREFIX)) throw new Error(`PacketShaper.start: not inside a ${NAMESPACE_PREFIX}* namespace`);
    run('ip', ['link', 'set', 'lo', 'up', 'mtu', '1500']);
    const shaped = profiles.map(({ oneWayMs, jitterMs, loss }) => ({ oneWayMs, jitterMs, loss }));
    const child = spawn('python3', [SHAPER, DEVICE, JSON.stringify(shaped), ...(options.seed === undefined ? [] : [String(options.seed)])], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr!.on('data', (data: Buffer) => options.stderr?.(data.toString()));
    const lines = createInterface({ input: child.stdout! });
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`tun-shaper.py exited (${code}) before its device was ready`)));
      lines.once('line', (line) => (line === 'ready' ? resolve() : reject(new Error(`tun-shaper.py: ${line}`))));
    });
    // No IPv6 on the device: its own link-local chatter would reach the reader.
    fs.writeFileSync(`/proc/sys/net/ipv6/conf/${DEVICE}/disable_ipv6`, '1');
    run('ip', ['link', 'set', DEVICE, 'up']);
    for (const device of ['all', DEVICE]) {
      for (const [key, value] of [['route_localnet', '1'], ['accept_local', '1'], ['rp_filter', '0']]) {
        fs.writeFileSync(`/proc/sys/net/ipv4/conf/${device}/${key}`, value);
      }
    }
    run('tc', ['qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'htb']);
    for (const [prio, field] of [['1', 'src'], ['2', 'dst']]) {
      run('tc', ['filter', 'add', 'dev', 'lo', 'parent', '1:', 'protocol', 'ip', 'prio', prio, 'u32', 'match', 'ip', field, PHONE_NET, 'action', 'mirred', 'egress', 'redirect', 'dev', DEVICE]);
    }
    return new PacketShaper(child, lines, profiles);
  }

  /** A link for the next phone of `profile` (one of those the shaper started with). */
  link(profile: NetworkProfile): NamespaceLink {
    const index = this.profiles.indexOf(profile);
    if (index < 0) throw new Error(`unknown profile ${profile.name}`);
    const n = (this.phonesPerProfile.get(index) ?? 0) + 1;
    this.phonesPerProfile.set(index, n);
    if (n > 250 * 250) throw new Error('too many phones on one profile');
    return new NamespaceLink(this, profile, `127.${10 + index}.${Math.floor(n / 250)}.${(n % 250) + 1}`);
  }

  command(line: string): void {
    this.child.stdin!.write(`${line}\n`);
  }

  /** The packets the reader passed and dropped so far. */
  counts(): Promise<{ passed: number; dropped: number }> {
    const stats = this.nextStats();
    this.command('stats');
    return stats;
  }

  /** Stops the reader (its device goes with it); resolves to the packets it passed and dropped. */
  async stop(): Promise<{ passed: number; dropped: number }> {
    const stats = this.nextStats();
    this.child.stdin!.end();
    const counts = await stats;
    run('tc', ['qdisc', 'del', 'dev', 'lo', 'root']);
    return counts;
  }

  private nextStats(): Promise<{ passed: number; dropped: number }> {
    return new Promise((resolve) => {
      const onLine = (line: string) => {
        if (!line.startsWith('stats ')) return;
        this.lines.off('line', onLine);
        const [, passed, dropped] = line.split(' ').map(Number);
        resolve({ passed, dropped });
      };
      this.lines.on('line', onLine);
      this.child.once('exit', () => resolve({ passed: 0, dropped: 0 }));
    });
  }
}
