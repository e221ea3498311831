/**
 * How long each phase of the game lasts. DESIGN §4 fixes the reveal and slide lengths; media
 * phases last as long as the media they show, so the display's rotation and the engine agree.
 */
import type { MediaView } from '../../../protocol/index.js';

/** The reveal (correct answer highlighted) after a question closes. */
export const REVEAL_MS = 5_000;
/** A slide item stays on screen this long. */
export const SLIDE_MS = 10_000;
/** "Get Ready!" transition, and media block length, when the session has no media assigned. */
export const NO_MEDIA_MS = 5_000;
/** Used for a media item whose stored duration is missing or not positive (spec default 3 s). */
export const DEFAULT_MEDIA_DURATION_SECONDS = 3;
/** timer_tick cadence during a question. */
export const TICK_MS = 1_000;

/**
 * Length of a media run showing `count` items: the sum of the durations of the first
 * min(count, list size) items, each shown once, the same items the screens rotate through.
 */
export function mediaRunMs(media: readonly MediaView[], count: number): number {
  const shown = Math.min(Math.max(0, Math.floor(count)), media.length);
  if (shown === 0) return NO_MEDIA_MS;
  let totalMs = 0;
  for (let i = 0; i < shown; i++) totalMs += mediaDurationSeconds(media[i]) * 1000;
  return totalMs;
}

function mediaDurationSeconds(item: MediaView): number {
  return Number.isFinite(item.duration) && item.duration > 0 ? item.duration : DEFAULT_MEDIA_DURATION_SECONDS;
}

export function questionDurationMs(timeLimitSeconds: number): number {
  return Math.max(0, timeLimitSeconds) * 1000;
}

/** Whole seconds left, rounded up, never negative: 29.2 s left shows as 30. */
export function secondsRemaining(endsAtMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((endsAtMs - nowMs) / 1000));
}

/** The first whole second after `nowMs`, counted from the question's start. */
export function nextTickAfter(startedAtMs: number, nowMs: number): number {
  const elapsedTicks = Math.floor(Math.max(0, nowMs - startedAtMs) / TICK_MS);
  return startedAtMs + (elapsedTicks + 1) * TICK_MS;
}
