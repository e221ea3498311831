/**
 * Connects and drops between phase changes refresh the stored roster (the snapshot's list of
 * present players, which only matters after a crash) at most once per ROSTER_REFRESH_MS, and at
 * the latest that long after the change.
 */
import type { Clock, TimerHandle } from './clock.js';

/**
 * A full house's roster is tens of KB: written with every batch of a reconnect storm's answers it
 * cost more CPU than the answers themselves.
 */
export const ROSTER_REFRESH_MS = 1_000;

export class RosterRefresh {
  private refreshedAtMs = Number.NEGATIVE_INFINITY;
  private timer: TimerHandle | null = null;
  closing = false;

  /** `refresh` hands the current roster to the next batch of the group commit. */
  constructor(
    private readonly clock: Clock,
    private readonly refresh: () => void,
  ) {}

  /** The roster goes with the next batch now, or if it went less than ROSTER_REFRESH_MS ago, that long after. */
  changed(): void {
    if (this.timer !== null || this.closing) return;
    const waitMs = this.refreshedAtMs + ROSTER_REFRESH_MS - this.clock.now();
    if (waitMs <= 0) {
      this.now();
      return;
    }
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.now();
    }, waitMs);
  }

  cancel(): void {
    this.closing = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private now(): void {
    this.refreshedAtMs = this.clock.now();
    this.refresh();
  }
}
