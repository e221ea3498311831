/**
 * Successful player registrations per address (DESIGN §15): a token bucket of `burst`, refilled
 * at `perSecond`. A venue's phones share one public address, so the default (100, then 2/s) is
 * above what a full house joining at the doors needs. A slot is taken before registering and
 * given back when the registration creates nobody, so a storm of parallel requests cannot all
 * pass the check before any is counted. This one counts in the process; in multi-instance mode
 * the instances share buckets in Redis (server/transport/cluster/registration-limiter.ts).
 */
export interface RegistrationLimit {
  burst: number;
  perSecond: number;
}

/** What registration needs of a limiter: the in-process one or the shared one (Redis). */
export interface RegistrationThrottle {
  /** Takes a slot: null when granted, else the seconds to wait. */
  take(address: string): number | null | Promise<number | null>;
  /** Gives back a slot taken for a registration that created no player. */
  giveBack(address: string): void | Promise<void>;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

/** Above this many addresses, buckets that have refilled are forgotten (bounded memory under a flood of addresses). */
const SWEEP_ABOVE = 10_000;

export class RegistrationLimiter implements RegistrationThrottle {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RegistrationLimit | null,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a slot: null when granted, else the seconds to wait. */
  take(address: string): number | null {
    if (!this.limit) return null;
    const bucket = this.refilled(address);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.limit.perSecond));
  }

  /** Gives back a slot taken for a registration that created no player. */
  giveBack(address: string): void {
    if (!this.limit) return;
    const bucket = this.refilled(address);
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + 1);
  }

  private refilled(address: string): Bucket {
    const { burst, perSecond } = this.limit!;
    const nowMs = this.now();
    let bucket = this.buckets.get(address);
    if (!bucket) {
      if (this.buckets.size >= SWEEP_ABOVE) this.sweep(nowMs);
      bucket = { tokens: burst, atMs: nowMs };
      this.buckets.set(address, bucket);
      return bucket;
    }
    bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.atMs) / 1000) * perSecond);
    bucket.atMs = nowMs;
    return bucket;
  }

  private sweep(nowMs: number): void {
    const { burst, perSecond } = this.limit!;
    for (const [address, bucket] of this.buckets) {
      if (bucket.tokens + ((nowMs - bucket.atMs) / 1000) * perSecond >= burst) this.buckets.delete(address);
    }
  }
}

/** `REGISTRATION_LIMIT`: "burst,perSecond" or "off". */
export function parseRegistrationLimit(value: string): RegistrationLimit | null | undefined {
  if (value.trim().toLowerCase() === 'off') return null;
  const match = /^\s*(\d+)\s*,\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
  if (!match) return undefined;
  const burst = Number(match[1]);
  const perSecond = Number(match[2]);
  return burst >= 1 && perSecond > 0 ? { burst, perSecond } : undefined;
}
