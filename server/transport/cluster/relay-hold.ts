/**
 * The reveal after a Redis outage (DESIGN §16, docs/OPERATIONS.md). An answer is stamped by the
 * instance it reached; while Redis is down, one sent to another instance than the owner's waits
 * in that instance's command queue, and reaches the owner only when Redis is back. Nothing is
 * accepted after `question_end` (DESIGN §14), so instead of refusing such an answer as late, the
 * owner holds the reveal of a question whose deadline falls in the outage until every other
 * instance with sockets in the game has caught up, bounded:
 *
 * - while Redis is down (since before the deadline), at most MAX_RELAY_HOLD_MS past the deadline;
 * - once it is back, until each such instance has sent something stamped after the deadline (or
 *   after Redis came back: an instance's entries reach the stream in the order it sent them, so
 *   everything it sent before is in), and at most REJOIN_WAIT_MS after Redis came back (every
 *   instance announces its sockets again within about a second of its return).
 *
 * An answer stamped before the deadline that arrives later than that is refused as late.
 */

/** The reveal waits at most this long past the deadline for answers held up by a Redis outage. */
export const MAX_RELAY_HOLD_MS = 15_000;
/** After Redis is back, the reveal waits at most this long for the other instances to catch up. */
export const REJOIN_WAIT_MS = 3_000;

/** Redis as this owner's connection saw it (the room's clock). */
export class RedisOutage {
  downSinceMs: number | null = null;
  backAtMs = Number.NEGATIVE_INFINITY;

  down(nowMs: number): void {
    this.downSinceMs ??= nowMs;
  }

  back(nowMs: number): void {
    if (this.downSinceMs === null) return;
    this.downSinceMs = null;
    this.backAtMs = nowMs;
  }
}

/** The latest stamp (the room's clock) read from each other instance's entries in a session's inbox. */
export class RelayWatch {
  private readonly latest = new Map<string, number>();
  /** The question end the reveal is held for (logged once when the hold begins and ends). */
  holdingFor: number | null = null;

  seen(instanceId: string, stampMs: number): void {
    if (!instanceId) return;
    const before = this.latest.get(instanceId);
    if (before === undefined || stampMs > before) this.latest.set(instanceId, stampMs);
  }

  latestFrom(instanceId: string): number {
    return this.latest.get(instanceId) ?? Number.NEGATIVE_INFINITY;
  }
}

/** Whether the reveal of the question ending at `endsAtMs` still waits for answers relayed by `others`. */
export function revealWaits(outage: RedisOutage, watch: RelayWatch, others: Iterable<string>, endsAtMs: number, nowMs: number): boolean {
  if (nowMs >= endsAtMs + MAX_RELAY_HOLD_MS) return false;
  // Down only since the deadline: what was stamped before it had been relayed already.
  if (outage.downSinceMs !== null && outage.downSinceMs > endsAtMs) return false;
  if (outage.downSinceMs === null && nowMs >= outage.backAtMs + REJOIN_WAIT_MS) return false;
  // Entries of another instance stamped from here on prove that everything it sent before is in.
  const caughtUpAt = outage.downSinceMs === null ? Math.min(endsAtMs, outage.backAtMs) : endsAtMs;
  for (const instanceId of others) {
    if (watch.latestFrom(instanceId) < caughtUpAt) return true;
  }
  return false;
}
