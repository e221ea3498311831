/**
 * The login limiter of DESIGN §15: failures are counted per username and client address, so a
 * guesser slows down only his own guesses at that username; the administrator logging in from
 * elsewhere (or with a device cookie, see login-device.ts) is never slowed by him.
 *
 * After MAX_FAILURES failures, each further attempt waits 1 s, doubling with every failure up to
 * MAX_WAIT_MS. The count is forgotten WINDOW_MS after the last wait ended without a new failure.
 * An attempt is counted as a failure when it starts and forgiven on success, so parallel guesses
 * cannot all slip through while the password hash is being checked. In memory in one process; in
 * multi-instance mode the count lives in Redis (server/transport/cluster/login-limiter.ts).
 */
import { createHash } from 'node:crypto';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;
export const FIRST_WAIT_MS = 1000;
export const MAX_WAIT_MS = 15 * 60 * 1000;

export interface LoginThrottle {
  /**
   * Seconds this address must wait before trying this username again (the attempt is refused and
   * not counted), or 0: the attempt is counted as a failure until `succeeded` forgives it.
   */
  begin(username: string, address: string): number | Promise<number>;
  succeeded(username: string, address: string): void | Promise<void>;
}

/** How long to wait after the last of `failures` failures. */
export function waitAfterMs(failures: number): number {
  if (failures < MAX_FAILURES) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** Math.min(failures - MAX_FAILURES, 30), MAX_WAIT_MS);
}

/** When a record of `failures` failures, the last at `lastAtMs`, may be forgotten. */
export function forgetAtMs(failures: number, lastAtMs: number): number {
  return lastAtMs + waitAfterMs(failures) + WINDOW_MS;
}

/** Seconds still to wait (0: may try now). */
export function retryAfterSeconds(failures: number, lastAtMs: number, nowMs: number): number {
  const remaining = lastAtMs + waitAfterMs(failures) - nowMs;
  return remaining > 0 ? Math.ceil(remaining / 1000) : 0;
}

/** One bounded key per username (any letter case) and address. */
export function limiterKey(username: string, address: string): string {
  return createHash('sha256').update(`${username.trim().toLowerCase()}\0${address}`).digest('base64url');
}

/** Above this many tracked pairs, forgotten ones are swept out. */
const SWEEP_ABOVE = 10_000;

export class LoginLimiter implements LoginThrottle {
  private readonly failures = new Map<string, { count: number; lastAtMs: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  begin(username: string, address: string): number {
    const key = limiterKey(username, address);
    const now = this.now();
    const entry = this.current(key, now);
    if (entry) {
      const wait = retryAfterSeconds(entry.count, entry.lastAtMs, now);
      if (wait > 0) return wait;
      entry.count += 1;
      entry.lastAtMs = now;
    } else {
      this.failures.set(key, { count: 1, lastAtMs: now });
      if (this.failures.size > SWEEP_ABOVE) this.sweep(now);
    }
    return 0;
  }

  succeeded(username: string, address: string): void {
    this.failures.delete(limiterKey(username, address));
  }

  private current(key: string, now: number) {
    const entry = this.failures.get(key);
    if (entry && now >= forgetAtMs(entry.count, entry.lastAtMs)) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(now: number): void {
    for (const key of this.failures.keys()) this.current(key, now);
  }
}
