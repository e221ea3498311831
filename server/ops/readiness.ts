/**
 * Readiness (/readyz, DESIGN §12): is this instance able to serve a show right now?
 *
 * Each dependency is probed with a short timeout, all at once. The report is kept for half a
 * second and concurrent callers share one probe, so a load balancer polling every second (or
 * several of them) costs at most two `select 1` a second. A storage fault seen by the game's own
 * writes drops the kept report at once (`invalidate`), so /readyz turns within 1 s (DESIGN §16). The endpoint is public, so a failing check says only
 * a short, fixed reason ("timeout", "connection refused"); the full error goes to the log, once
 * per change of state.
 */
import type { RoomLog } from '../game/rooms/broadcaster.js';
import { storageFaultCause } from '../storage/faults.js';

/** The checks DESIGN §12 names, in the order they are reported. */
export const READINESS_CHECKS = ['database', 'redis', 'media'] as const;
export type ReadinessCheckName = (typeof READINESS_CHECKS)[number];

/** Resolves when the dependency works; rejects (with any error) when it does not. */
export type ReadinessProbe = () => Promise<unknown>;

export interface ReadinessReport {
  ready: boolean;
  /** 'ok', 'off' (not configured) or a short reason. */
  checks: Record<ReadinessCheckName, string>;
}

type ReadinessLog = Pick<RoomLog, 'warn' | 'info'>;

export interface ReadinessOptions {
  timeoutMs?: number;
  cacheMs?: number;
  log?: ReadinessLog;
}

export const READINESS_TIMEOUT_MS = 2_000;
/** Half a second: a change of state shows within 1 s (DESIGN §16); storage faults also clear it at once (`invalidate`). */
export const READINESS_CACHE_MS = 500;

class ProbeTimeout extends Error {}

/** A reason safe to show anyone: never a host name, a URL or a message from the dependency. */
export function shortReason(err: unknown): string {
  if (err instanceof ProbeTimeout) return 'timeout';
  const code = (err as { code?: unknown }).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection lost';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ETIMEDOUT':
      return 'timeout';
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return 'not writable';
    case 'ENOENT':
      return 'missing';
    case 'ENOSPC':
      return 'disk full';
  }
  // ioredis: with its offline queue disabled a command fails at once while it reconnects.
  if (err instanceof Error && /writeable|not connected|Connection is closed/i.test(err.message)) return 'not connected';
  // The database's own words for it ("disk full", "connection lost"): storage/faults.ts.
  return storageFaultCause(err) ?? 'error';
}

export class Readiness {
  private readonly probes = new Map<ReadinessCheckName, ReadinessProbe>();
  private readonly timeoutMs: number;
  private readonly cacheMs: number;
  private cached: { report: ReadinessReport; atMs: number } | undefined;
  private inFlight: Promise<ReadinessReport> | undefined;
  private lastLogged: string | undefined;
  private log: ReadinessLog | undefined;

  constructor(options: ReadinessOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
    this.cacheMs = options.cacheMs ?? READINESS_CACHE_MS;
    this.log = options.log;
  }

  /** The server's logger exists only once the app is built, after the checks. */
  setLog(log: ReadinessLog): void {
    this.log = log;
  }

  /** Adds (or replaces) a check; one never registered reports 'off' (e.g. Redis when REDIS_URL is unset). */
  register(name: ReadinessCheckName, probe: ReadinessProbe): void {
    this.probes.set(name, probe);
    this.cached = undefined;
  }

  /** Forgets the kept report: something changed (a storage fault seen, or storage back). */
  invalidate(): void {
    this.cached = undefined;
  }

  report(): Promise<ReadinessReport> {
    if (this.cached && Date.now() - this.cached.atMs < this.cacheMs) return Promise.resolve(this.cached.report);
    this.inFlight ??= this.probeAll().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async probeAll(): Promise<ReadinessReport> {
    const failures: Partial<Record<ReadinessCheckName, unknown>> = {};
    const results = await Promise.all(
      READINESS_CHECKS.map(async (name) => {
        const probe = this.probes.get(name);
        if (!probe) return 'off';
        try {
          await this.withTimeout(probe);
          return 'ok';
        } catch (err) {
          failures[name] = err;
          return shortReason(err);
        }
      }),
    );
    const checks = Object.fromEntries(READINESS_CHECKS.map((name, i) => [name, results[i]])) as ReadinessReport['checks'];
    const report = { ready: Object.keys(failures).length === 0, checks };
    this.cached = { report, atMs: Date.now() };
    this.logChange(report, failures);
    return report;
  }

  private withTimeout(probe: ReadinessProbe): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProbeTimeout()), this.timeoutMs);
    });
    return Promise.race([probe(), timeout]).finally(() => clearTimeout(timer));
  }

  private logChange(report: ReadinessReport, failures: Partial<Record<ReadinessCheckName, unknown>>): void {
    const state = JSON.stringify(report.checks);
    if (state === this.lastLogged) return;
    const first = this.lastLogged === undefined;
    this.lastLogged = state;
    const errors = Object.fromEntries(Object.entries(failures).map(([name, err]) => [name, err instanceof Error ? err.message : String(err)]));
    if (!report.ready) this.log?.warn({ checks: report.checks, errors }, 'not ready');
    else if (!first) this.log?.info({ checks: report.checks }, 'ready again');
  }
}
