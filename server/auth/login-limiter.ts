/**
 * Counts failed logins per client address. After MAX_FAILURES within the window, that address is
 * refused (429) until the window since its first failure has passed. Kept in memory in one
 * process; in multi-instance mode the count lives in Redis (server/cluster/login-limiter.ts), so
 * a round-robin load balancer does not multiply the allowance by the number of instances.
 */
export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

export interface LoginThrottle {
  /** Seconds until this address may try again, or 0 when it may try now. */
  retryAfterSeconds(address: string): number | Promise<number>;
  recordFailure(address: string): void | Promise<void>;
  recordSuccess(address: string): void | Promise<void>;
}

export class LoginLimiter implements LoginThrottle {
  private readonly failures = new Map<string, { count: number; firstAtMs: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds until this address may try again, or 0 when it may try now. */
  retryAfterSeconds(address: string): number {
    const entry = this.current(address);
    if (!entry || entry.count < MAX_FAILURES) return 0;
    return Math.ceil((entry.firstAtMs + WINDOW_MS - this.now()) / 1000);
  }

  recordFailure(address: string): void {
    const entry = this.current(address);
    if (entry) entry.count += 1;
    else this.failures.set(address, { count: 1, firstAtMs: this.now() });
    if (this.failures.size > 10_000) this.sweep();
  }

  recordSuccess(address: string): void {
    this.failures.delete(address);
  }

  private current(address: string) {
    const entry = this.failures.get(address);
    if (entry && this.now() - entry.firstAtMs >= WINDOW_MS) {
      this.failures.delete(address);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    for (const address of this.failures.keys()) this.current(address);
  }
}
