/**
 * Redis's clock as seen from this instance (DESIGN §16): client messages are stamped with it when
 * they reach an instance, and the owner turns the stamp back into its own game clock. Both sides
 * measure their offset to Redis the same way (one TIME round trip, its middle), so instances need
 * no synchronised clocks of their own. Measured at start, after each reconnection and every
 * REMEASURE_MS; a round trip slower than MAX_ROUND_TRIP_MS is not trusted.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../../game/rooms/index.js';

const REMEASURE_MS = 60_000;
const MAX_ROUND_TRIP_MS = 250;

/** Redis's clock minus `clock`, measured around one TIME round trip. */
export async function redisClockOffset(redis: Pick<Redis, 'time'>, clock: Pick<Clock, 'now'>): Promise<{ offsetMs: number; roundTripMs: number }> {
  const before = clock.now();
  const [seconds, micros] = await redis.time();
  const after = clock.now();
  return { offsetMs: Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - (before + after) / 2, roundTripMs: after - before };
}

export class RedisClock {
  private offsetMs: number | undefined;
  private measuring = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly clock: Pick<Clock, 'now'>,
  ) {
    this.timer = setInterval(() => this.measure(), REMEASURE_MS);
    this.timer.unref();
    redis.on('ready', () => this.measure());
    this.measure();
  }

  /** Now in Redis's clock; undefined until a first measure (the owner then uses the entry's own time). */
  now(): number | undefined {
    return this.offsetMs === undefined ? undefined : this.clock.now() + this.offsetMs;
  }

  close(): void {
    clearInterval(this.timer);
  }

  private measure(): void {
    // Commands wait through an outage (offline queue): one measure at a time.
    if (this.measuring) return;
    this.measuring = true;
    redisClockOffset(this.redis, this.clock)
      .then(({ offsetMs, roundTripMs }) => {
        if (roundTripMs <= MAX_ROUND_TRIP_MS || this.offsetMs === undefined) this.offsetMs = offsetMs;
      })
      .catch(() => undefined)
      .finally(() => (this.measuring = false));
  }
}
