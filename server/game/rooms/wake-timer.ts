/**
 * The room's one pending wake-up on the injected clock: armed for the moment the engine state
 * next needs a `timer` event (pendingWakeAt), re-armed after every step only when that changed.
 */
import type { Clock, TimerHandle } from './clock.js';

/** How often a held reveal asks again whether it may go on. */
const REVEAL_POLL_MS = 100;

export class WakeTimer {
  private timer: TimerHandle | null = null;
  private atMs: number | null = null;
  /** Shutting down: nothing new is armed. */
  closing = false;

  constructor(
    private readonly clock: Clock,
    private readonly onWake: () => void,
    /** Asked when the wake-up is due: while true, it waits (a reveal held for relayed answers, DESIGN §16). */
    private readonly held: () => boolean = () => false,
  ) {}

  arm(atMs: number | null): void {
    const { clock } = this;
    if (this.timer !== null) clock.clearTimeout(this.timer);
    this.timer = null;
    this.atMs = atMs;
    if (atMs === null || this.closing) return;
    const fire = () => {
      if (this.held()) {
        this.timer = clock.setTimeout(fire, REVEAL_POLL_MS);
        return;
      }
      this.timer = null;
      this.atMs = null;
      this.onWake();
    };
    this.timer = clock.setTimeout(fire, Math.max(0, atMs - clock.now()));
  }

  /** After each step: the timer matches what the state needs (an early wake-up changes nothing and re-arms). */
  sync(wanted: number | null): void {
    if (wanted !== this.atMs || (wanted !== null && this.timer === null)) this.arm(wanted);
  }
}
