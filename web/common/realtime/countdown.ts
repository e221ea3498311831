/**
 * A countdown that follows the server's clock but never moves back up (DESIGN §14). The clock
 * offset estimate (serverClock.ts) can shift when a fresher sample arrives, e.g. after a stalled
 * link delivers a batch of old messages: recomputing `endsAt − serverNow` would then make the
 * seconds jump back. Here the time left for one deadline only ever decreases; a question that
 * arrives late starts from what is really left, since `endsAt` is the server's deadline.
 */
export class Countdown {
  private endsAt: number | null = null;
  private lowestMs = Number.POSITIVE_INFINITY;

  /** Milliseconds left until `endsAt` on the server's clock, never more than shown before for it. */
  remainingMs(endsAt: number, serverNow: number): number {
    if (endsAt !== this.endsAt) {
      this.endsAt = endsAt;
      this.lowestMs = Number.POSITIVE_INFINITY;
    }
    this.lowestMs = Math.min(this.lowestMs, Math.max(0, endsAt - serverNow));
    return this.lowestMs;
  }

  /** Whole seconds left, rounded up like the server's ticks. */
  seconds(endsAt: number, serverNow: number): number {
    return Math.ceil(this.remainingMs(endsAt, serverNow) / 1000);
  }
}
