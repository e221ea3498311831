import fs from 'node:fs';

/**
 * Server resource figures read from the outside, through /proc (Linux), so the measured process
 * does no work to report them.
 */

/** Resident set size in KiB (VmRSS of /proc/<pid>/status). */
export function readRssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]);
}

/**
 * Write-type system calls the process has made so far (syscw of /proc/<pid>/io: write, writev and
 * the like, sockets included): how many times the server went to the kernel to send.
 */
export function readWriteSyscalls(pid: number): number {
  const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
  const match = /^syscw:\s+(\d+)/m.exec(io);
  return match ? Number(match[1]) : Number.NaN;
}

/** Clock ticks per second for /proc/<pid>/stat times; 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;
/** The resolution of the CPU figures read here: each reading is truncated to a whole clock tick. */
export const CPU_TICK_SECONDS = 1 / CLOCK_TICKS_PER_SECOND;

/** User + system CPU seconds the process has used so far (utime + stime of /proc/<pid>/stat). */
export function readCpuSeconds(pid: number): number {
  return cpuSecondsOf(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * The same for the process's main thread alone (/proc/<pid>/task/<pid>/stat). The rest of the
 * process's CPU is its other threads: V8's (the garbage collector's parallel and concurrent work,
 * the optimizing compilers) and workers. A round that pays a major collection or recompiles code
 * pays it there (docs/PERFORMANCE.md, session 55).
 */
export function readMainThreadCpuSeconds(pid: number): number {
  return cpuSecondsOf(fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
}

/**
 * Seconds the process's main thread has spent runnable but waiting for a core (the second field
 * of /proc/<pid>/task/<pid>/schedstat, in nanoseconds); NaN where the kernel keeps no schedstat.
 * On the bench's two cores the server shares them with the load generator and its own V8 threads:
 * a round whose main thread waited long measured the machine as much as the server.
 */
export function readMainThreadWaitSeconds(pid: number): number {
  let schedstat: string;
  try {
    schedstat = fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8');
  } catch {
    return Number.NaN;
  }
  const waitingNs = Number(schedstat.split(' ')[1]);
  return Number.isFinite(waitingNs) ? waitingNs / 1e9 : Number.NaN;
}

/** utime + stime of a /proc stat line, in seconds. */
function cpuSecondsOf(stat: string): number {
  // The command name (field 2) is in parentheses and may contain spaces: count fields after it.
  const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // afterName[0] is field 3 (state); utime is field 14, stime field 15.
  const utime = Number(afterName[14 - 3]);
  const stime = Number(afterName[15 - 3]);
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

export interface OpenFilesLimit {
  soft: number;
  hard: number;
}

/** This process's limits on open files (every socket is one); Infinity when unlimited or unknown. */
export function openFilesLimit(): OpenFilesLimit {
  const unknown = { soft: Number.POSITIVE_INFINITY, hard: Number.POSITIVE_INFINITY };
  try {
    const limits = fs.readFileSync('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(limits);
    if (!match) return unknown;
    const value = (text: string) => (text === 'unlimited' ? Number.POSITIVE_INFINITY : Number(text));
    return { soft: value(match[1]), hard: value(match[2]) };
  } catch {
    return unknown;
  }
}

/**
 * Connections the kernel dropped because a listening socket's accept queue was full, machine-wide
 * so far (TcpExt ListenOverflows of /proc/net/netstat); NaN where it cannot be read. Each one costs
 * a client a SYN retransmission: a second or more before its connect even reaches the server.
 */
export function readListenOverflows(): number {
  try {
    const lines = fs.readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const header = lines.findIndex((line) => line.startsWith('TcpExt:'));
    const names = lines[header].split(/\s+/);
    const values = lines[header + 1].split(/\s+/);
    const at = names.indexOf('ListenOverflows');
    return at < 0 ? Number.NaN : Number(values[at]);
  } catch {
    return Number.NaN;
  }
}
