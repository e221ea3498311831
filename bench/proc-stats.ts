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

/** Clock ticks per second for /proc/<pid>/stat times; 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU seconds the process has used so far (utime + stime of /proc/<pid>/stat). */
export function readCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may contain spaces: count fields after it.
  const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // afterName[0] is field 3 (state); utime is field 14, stime field 15.
  const utime = Number(afterName[14 - 3]);
  const stime = Number(afterName[15 - 3]);
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

/** The soft limit on open files of this process (sockets count). */
export function openFilesLimit(): number {
  try {
    const limits = fs.readFileSync('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    if (!match) return Number.POSITIVE_INFINITY;
    return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
