/**
 * The room's retry policy for a durable write (a group commit's batch) that failed: retried for
 * ever, in order, while the room runs, because the game goes on in memory and a confirmation
 * simply waits (DESIGN §16). The wait between attempts grows quickly to RETRY_MAX_MS and no
 * further: once storage is back, what waits is committed within that long (DESIGN §16 asks for
 * 1 s), at the cost of one failed attempt per room every RETRY_MAX_MS during an outage.
 *
 * The log names the cause in words ("disk full", "connection refused") next to the error, once
 * when the outage starts or its cause changes, then every LOG_EVERY_MS while it lasts, and once
 * when the write goes through again (with how long it waited).
 */
import { storageFaultCause } from '../../storage/faults.js';
import type { RoomLog } from './broadcaster.js';
import { FencedError } from './storage.js';

export const RETRY_FIRST_MS = 50;
export const RETRY_MAX_MS = 400;
/** Attempts left for a write once the room is closing (shutdown should not hang on a dead database). */
export const ATTEMPTS_WHEN_CLOSING = 3;
/** While an outage lasts, one reminder in the log this often (per room). */
export const LOG_EVERY_MS = 10_000;

export interface RetryOptions {
  /** Waits between attempts (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The first attempt was made by the caller and failed with this error: go on from the second. */
  failedOnce?: unknown;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before attempt `attempt + 1`. */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_FIRST_MS * 2 ** (attempt - 1), RETRY_MAX_MS);
}

/**
 * Runs `op` until it succeeds. While `closing()` is false it retries for ever; once closing, it
 * gives up after a few attempts. Never throws: false when given up (or fenced off).
 */
export async function retryWrite(op: () => Promise<void>, what: string, log: RoomLog, closing: () => boolean, options: RetryOptions = {}): Promise<boolean> {
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  let firstFailureAtMs = 0;
  let loggedAtMs = Number.NEGATIVE_INFINITY;
  let loggedCause: string | undefined;
  // The caller's own first attempt, when it made one: its error is handled as attempt 1's.
  let failedFirst = 'failedOnce' in options;
  for (let attempt = 1; ; attempt++) {
    let err: unknown;
    if (failedFirst) {
      failedFirst = false;
      err = options.failedOnce;
    } else {
      try {
        await op();
        if (attempt > 1) log.info({ attempt, waitedMs: now() - firstFailureAtMs }, `${what}: stored after retrying`);
        return true;
      } catch (caught) {
        err = caught;
      }
    }
    // Another instance owns the game now (multi-instance mode): retrying can never succeed, and must not.
    if (err instanceof FencedError) {
      log.warn({ err }, `${what}: refused, this instance lost the session`);
      return false;
    }
    const cause = storageFaultCause(err) ?? 'error';
    if (attempt === 1) firstFailureAtMs = now();
    if (closing() && attempt >= ATTEMPTS_WHEN_CLOSING) {
      log.error({ err, attempt, cause }, `${what}: failed (${cause}), giving up while shutting down`);
      return false;
    }
    if (cause !== loggedCause || now() - loggedAtMs >= LOG_EVERY_MS) {
      loggedCause = cause;
      loggedAtMs = now();
      log.error({ err, attempt, cause, waitingMs: now() - firstFailureAtMs }, `${what}: failed (${cause}), retrying`);
    }
    await sleep(retryDelayMs(attempt));
  }
}
