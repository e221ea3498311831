import { useEffect, useRef, useState } from 'react';
import { Countdown } from './countdown';

/** How often the countdown is recomputed; well under a second so the digit flips on time. */
const REDRAW_INTERVAL_MS = 200;

/**
 * Seconds left in the running phase, drawn from `endsAt` on the server's clock so every screen
 * in the room flips the same second, and never back up. Without `endsAt`, the last `timeRemaining` the server sent.
 */
export function useCountdown(endsAt: number | null, timeRemaining: number | null, serverNow: () => number): number | null {
  const [, redraw] = useState(0);
  // Never jumps back up when the clock estimate moves (countdown.ts).
  const countdown = useRef(new Countdown());
  useEffect(() => {
    if (endsAt === null) return;
    const timer = setInterval(() => redraw((n) => n + 1), REDRAW_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [endsAt]);
  if (endsAt !== null) return countdown.current.seconds(endsAt, serverNow());
  return timeRemaining;
}

/** 75 → '1:15', 8 → '0:08'. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** SPEC §9: the countdown turns the warning colour and pulses at 10 s or less. */
export const TIMER_WARNING_SECONDS = 10;
