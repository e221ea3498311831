/**
 * Durable writes of a room, off the hot path.
 *
 * Answers are scored by the engine the moment they arrive; their rows are written in batches
 * (a burst of hundreds lands within a second): buffered, then flushed ~50 ms later in one
 * transaction, and always before the results of a question are committed. A failed write is
 * logged and retried with backoff, in order, so nothing is lost while the database hiccups.
 */
import type { RoomLog } from './broadcaster.js';
import { type AnswerWrite, FencedError } from './storage.js';

const RETRY_FIRST_MS = 50;
const RETRY_MAX_MS = 2_000;
/** Attempts left for a write once the room is closing (shutdown should not hang on a dead database). */
const ATTEMPTS_WHEN_CLOSING = 3;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `op` until it succeeds. While `closing()` is false it retries for ever (the game goes on
 * in memory and catches up); once closing, it gives up after a few attempts. Never throws.
 */
export async function retryWrite(op: () => Promise<void>, what: string, log: RoomLog, closing: () => boolean): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await op();
      if (attempt > 1) log.info({ attempt }, `${what}: stored after retrying`);
      return true;
    } catch (err) {
      // Another instance owns the game now: retrying can never succeed, and must not.
      if (err instanceof FencedError) {
        log.warn({ err }, `${what}: refused, this instance lost the session`);
        return false;
      }
      if (closing() && attempt >= ATTEMPTS_WHEN_CLOSING) {
        log.error({ err, attempt }, `${what}: failed, giving up while shutting down`);
        return false;
      }
      log.error({ err, attempt }, `${what}: failed, retrying`);
      await sleep(Math.min(RETRY_FIRST_MS * 2 ** (attempt - 1), RETRY_MAX_MS));
    }
  }
}

export class AnswerWriter {
  private buffer: AnswerWrite[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Batches are written one after another; `flush` resolves when everything so far is stored. */
  private lane: Promise<unknown> = Promise.resolve();
  private closing = false;

  constructor(
    private readonly save: (answers: AnswerWrite[]) => Promise<void>,
    private readonly flushDelayMs: number,
    private readonly log: RoomLog,
  ) {}

  get buffered(): number {
    return this.buffer.length;
  }

  add(answer: AnswerWrite): void {
    this.buffer.push(answer);
    if (this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), this.flushDelayMs);
      this.timer.unref();
    }
  }

  /** Writes what is buffered; resolves once every answer added so far is stored (or given up). */
  flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.buffer.length > 0) {
      const batch = this.buffer;
      this.buffer = [];
      this.lane = this.lane.then(() =>
        retryWrite(() => this.save(batch), `saving ${batch.length} answer(s)`, this.log, () => this.closing),
      );
    }
    return this.lane.then(() => undefined);
  }

  /** Final flush: retries a few times at most, then gives up with an error in the log. */
  close(): Promise<void> {
    this.closing = true;
    return this.flush();
  }
}
