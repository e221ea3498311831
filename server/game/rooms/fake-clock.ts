/**
 * A manual clock for tests. `advance` moves time forward and fires every timer that falls due on
 * the way, each at its own time; between two timers it awaits `settle` (e.g. "every room has
 * finished processing"), so the wake-up a room schedules in reaction to one timer is seen too.
 */
import type { Clock, TimerHandle } from './clock.js';

interface FakeTimer {
  id: number;
  atMs: number;
  callback: () => void;
}

export class FakeClock implements Clock {
  private nowMs: number;
  private nextId = 1;
  private timers: FakeTimer[] = [];
  /** Awaited after each fired timer; set it to wait for asynchronous reactions. */
  settle: () => Promise<void> = async () => {};

  constructor(startMs = Date.now()) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer = { id: this.nextId++, atMs: this.nowMs + Math.max(0, delayMs), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** When the earliest pending timer is due, or null. */
  nextTimerAt(): number | null {
    return this.timers.reduce<number | null>((min, t) => (min === null || t.atMs < min ? t.atMs : min), null);
  }

  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.nowMs + ms);
  }

  async advanceTo(targetMs: number): Promise<void> {
    await this.settle();
    for (;;) {
      const due = this.timers.filter((t) => t.atMs <= targetMs).sort((a, b) => a.atMs - b.atMs || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.nowMs = Math.max(this.nowMs, due.atMs);
      due.callback();
      await this.settle();
    }
    this.nowMs = Math.max(this.nowMs, targetMs);
  }
}
