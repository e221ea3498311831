import { useMemo } from 'react';

/**
 * The server's clock as seen from this device. Every `session_state` and `timer_tick` carries
 * `serverTime`; `serverTime − localReceiveTime` equals the true offset minus the message's
 * transit delay, so the largest recent sample is the best estimate (least delayed message).
 * A short window lets the estimate follow if either clock is adjusted.
 */
export const CLOCK_SAMPLE_WINDOW = 8;

export class ServerClock {
  private samples: number[] = [];

  constructor(private readonly localNow: () => number = Date.now) {}

  observe(serverTime: number): void {
    if (!Number.isFinite(serverTime)) return;
    this.samples.push(serverTime - this.localNow());
    if (this.samples.length > CLOCK_SAMPLE_WINDOW) this.samples.shift();
  }

  /** Milliseconds to add to the local clock; 0 before any message. */
  offsetMs(): number {
    return this.samples.length ? Math.max(...this.samples) : 0;
  }

  now(): number {
    return this.localNow() + this.offsetMs();
  }
}

/** Whole seconds left until `endsAt` on the server's clock, rounded up like the server's ticks. */
export function secondsUntil(endsAt: number, serverNow: number): number {
  return Math.max(0, Math.ceil((endsAt - serverNow) / 1000));
}

export interface ServerClockHandle {
  observe(serverTime: number): void;
  serverNow(): number;
}

/** One clock per screen; stable across renders so it can be used inside callbacks and effects. */
export function useServerClock(): ServerClockHandle {
  return useMemo(() => {
    const clock = new ServerClock();
    return { observe: (t: number) => clock.observe(t), serverNow: () => clock.now() };
  }, []);
}
