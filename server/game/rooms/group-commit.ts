/**
 * A room's durable writes, by group commit (DESIGN §8: a confirmation is a commit).
 *
 * Answers are scored by the engine the moment they arrive, but their `answer_accepted` waits for
 * the transaction that stores them. Answers arriving close together share one transaction: with
 * a window of 0 (the default) those read in the same turn of the event loop (committed in its
 * check phase, right after the sockets were read: no timer to wait for, which matters on a busy
 * machine where a timer fires late); and while one transaction runs the next batch gathers, so
 * under a burst each commit carries many answers and a confirmation waits about one commit, not
 * a queue of them. A step's scores and snapshot join the batch being gathered: everything a room stores
 * goes out as one batch at a time, in order, handed to the instance's shared commits
 * (shared-commits.ts) or committed alone through `RoomStorage.commit`.
 *
 * Under a burst answers keep gathering until a few milliseconds after the previous commit
 * started (`minGapMs`): on SQLite a commit is synchronous, so nothing gathers "while it runs", and
 * every commit rewrites the index pages its answers touch, scattered ones since player ids are
 * random. At 10,000 phones, one commit per event-loop turn wrote about four times the pages (and
 * four times the write syscalls) of one commit per 10 ms, for confirmations at most 10 ms sooner.
 * A lone answer after a quiet moment is still committed at the end of its turn.
 *
 * With the instance's shared commits, an answer of a room that has nothing else on its way to
 * storage goes on the instance's list instead (shared-commits.ts): no batch of the room's own.
 * The room then hands over nothing more until those answers are committed, unless it does so
 * before their transaction starts (the list is written ahead of every batch); a flush waits for
 * them; and if their transaction fails, they come back and are committed before the rest.
 *
 * A failed write is logged and retried (write-retry.ts), in order, so nothing is lost while the
 * database is away; confirmations simply wait, and the room keeps time meanwhile. Once closing,
 * a write gives up after a few attempts, and its confirmations are never sent (a promise not
 * kept is not made).
 */
import type { ScoreWrite } from '../engine/index.js';
import type { RoomLog } from './broadcaster.js';
import { type CommitDone, type ListOwner, reportTo, type SharedCommits } from './shared-commits.js';
import type { AnswerWrite, CommitBatch, SnapshotWrite } from './storage.js';
// The retry policy while storage is down (DESIGN §16) lives in write-retry.ts.
import { retryWrite } from './write-retry.js';

const DEFAULT_MAX_BATCH_ANSWERS = 512;
/** The scores of a batch that has none: shared, and frozen since no reader may add to it. */
const NO_SCORES: ScoreWrite[] = Object.freeze([]) as unknown as ScoreWrite[];
/** A batch's answers and confirmations before its first answer (frozen: `Gathering.add` replaces them). */
const NO_ANSWERS: AnswerWrite[] = Object.freeze([]) as unknown as AnswerWrite[];
const NO_CONFIRMATIONS: (() => void)[] = Object.freeze([]) as unknown as (() => void)[];
const DEFAULT_MIN_GAP_MS = 10;

/** What a room step adds to the batch beside answers (scores of a closed question, the snapshot). */
export interface StepWrite {
  scores?: ScoreWrite[];
  /** Questions that went out in the step (the results' per-asking rows). */
  askings?: { asking: number; questionId: string; askedAtMs: number }[];
  snapshot?: SnapshotWrite;
  autoRotate?: boolean;
}

/**
 * A batch being gathered. Built for every answer of a small game (an answer is usually a batch of
 * its own there), so what most batches never use is made only when asked for: the scores, askings
 * and newcomers, and the promise that someone waits on (issue 26: at 1,000 sessions the gatherings
 * were a sixth of a round's garbage).
 */
class Gathering {
  /**
   * Made by the first answer, as an array of one: an empty array's first push reserves 16 slots,
   * and at 1,000 small games most batches carry one answer (issue 26).
   */
  answers: AnswerWrite[] = NO_ANSWERS;
  /** Run in order once the batch is committed: the answers' confirmations. */
  onCommitted: (() => void)[] = NO_CONFIRMATIONS;
  scores: Map<string, ScoreWrite> | null = null;
  askings: NonNullable<StepWrite['askings']> | null = null;
  snapshot: SnapshotWrite | undefined = undefined;
  autoRotate: boolean | undefined = undefined;
  /** Players who joined since the stored roster was written (CommitBatch.joined). */
  joined: string[] | null = null;
  private done: Promise<boolean> | null = null;
  private resolveDone: ((committed: boolean) => void) | null = null;
  /** Set once settled: an empty batch settles before `commitNow` asks for its promise. */
  private outcome: boolean | null = null;

  /** A batch of answers given back from the instance's list, with their confirmations. */
  static of(answers: AnswerWrite[], confirms: (() => void)[]): Gathering {
    const batch = new Gathering();
    batch.answers = answers;
    batch.onCommitted = confirms;
    return batch;
  }

  /** Adds an answer and its confirmation; returns how many answers the batch holds. */
  add(answer: AnswerWrite, confirm: () => void): number {
    if (this.answers === NO_ANSWERS) {
      this.answers = [answer];
      this.onCommitted = [confirm];
      return 1;
    }
    this.onCommitted.push(confirm);
    return this.answers.push(answer);
  }

  /** Resolves once the batch is committed (true) or given up while closing (false). */
  whenDone(): Promise<boolean> {
    if (this.done === null) {
      this.done = this.outcome !== null ? Promise.resolve(this.outcome) : new Promise<boolean>((resolve) => (this.resolveDone = resolve));
    }
    return this.done;
  }

  /** Someone waits for this batch's outcome (`whenDone` was asked for). */
  get awaited(): boolean {
    return this.done !== null;
  }

  settle(committed: boolean): void {
    this.outcome = committed;
    this.resolveDone?.(committed);
  }

  get isEmpty(): boolean {
    return this.answers.length === 0 && !this.scores?.size && !this.askings?.length && !this.snapshot && this.autoRotate === undefined && !this.joined?.length;
  }
}

export interface GroupCommitOptions {
  sessionId: string;
  commit: (batch: CommitBatch) => Promise<void>;
  /**
   * The instance's shared commits: each batch's first attempt goes to `hand`, without a promise
   * (`done` once committed or refused; a refused batch is retried through `commit`, write-retry.ts),
   * and a batch waiting for this room's immediate or timer is registered with `waitFor`, so a poke
   * may hand it over sooner. Answers go on its list when it `lists` and the room has nothing else
   * on the way. Without it, batches go to `commit`.
   */
  shared?: Pick<SharedCommits, 'hand' | 'waitFor' | 'unwait' | 'list' | 'lists' | 'generation'>;
  /** How long the first answer of a batch waits for others to join it; 0: until the end of this event-loop turn. */
  windowMs: number;
  /**
   * A batch this large is committed at once, without waiting for the end of the event-loop turn:
   * on a busy machine one turn reads hundreds of answers, and the first of them would otherwise
   * wait for all the others to be processed; and it bounds how long one transaction holds the
   * event loop (about 5 ms on SQLite). Default 512.
   */
  maxBatchAnswers?: number;
  /** Answers gather at least this long after the previous commit started (see above). Default 10 ms. */
  minGapMs?: number;
  /** Monotonic milliseconds (injectable for tests). */
  now?: () => number;
  /**
   * A snapshot to write when nothing else brought one (the roster refreshed between phase
   * changes, see `refreshSoon`); read when a batch is taken, so it is as fresh as can be.
   */
  refreshSnapshot: () => SnapshotWrite | undefined;
  log: RoomLog;
}

export class GroupCommit implements ListOwner {
  private gathering = new Gathering();
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private timerDueMs = Infinity;
  /** The room's one batch in flight and what was written for it: listed answers given back join it in front. */
  private inFlight: { batch: Gathering; write: CommitBatch } | null = null;
  /** Answers on the instance's list, not committed yet; all listed while its `generation` was `listedIn`. */
  private listed = 0;
  private listedIn = -1;
  /** A drain waits for the listed answers to be committed. */
  private afterListed = false;
  private refresh = false;
  private closing = false;
  private lastCommitAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: GroupCommitOptions) {}

  /** Answers gathered or listed and not yet committed (for tests and diagnostics). */
  get pendingAnswers(): number {
    return this.gathering.answers.length + this.listed;
  }

  /** Adds an answer; `confirm` runs once it is committed, never before. */
  addAnswer(answer: AnswerWrite, confirm: () => void): void {
    const { shared } = this.options;
    // Nothing of the room's on the way but answers listed for the same transaction: on the list.
    if (shared?.lists && this.inFlight === null && !this.closing && this.gathering.isEmpty && (this.listed === 0 || this.listedIn === shared.generation)) {
      this.listedIn = shared.generation;
      shared.list(answer, confirm, this, this.listed++ === 0);
      return;
    }
    if (this.gathering.add(answer, confirm) >= (this.options.maxBatchAnswers ?? DEFAULT_MAX_BATCH_ANSWERS)) this.kick();
    else this.schedule(Math.max(this.options.windowMs, this.lastCommitAtMs + (this.options.minGapMs ?? DEFAULT_MIN_GAP_MS) - this.now()));
  }

  /**
   * A player joined the live game and is not on the stored roster: listed in the next batch (a
   * few bytes, gathered like an answer), so a resume after a crash awaits them too.
   */
  addJoined(playerId: string): void {
    (this.gathering.joined ??= []).push(playerId);
    this.schedule(Math.max(this.options.windowMs, this.lastCommitAtMs + (this.options.minGapMs ?? DEFAULT_MIN_GAP_MS) - this.now()));
  }

  /** Resolves once the batch being gathered now is committed (true) or given up while closing (false). */
  whenCommitted(): Promise<boolean> {
    return this.gathering.whenDone();
  }

  /** Asks for `refreshSnapshot()` to be written with the next batch, at the latest after `delayMs`. */
  refreshSoon(delayMs: number): void {
    this.refresh = true;
    this.schedule(delayMs);
  }

  /**
   * Adds a step's scores and snapshot to the batch and commits it now (after the one in flight,
   * if any). Resolves once stored, with every confirmation of the batch already sent: the results
   * the step is about to send come after the acceptances of the answers they count.
   */
  commitNow(write: StepWrite): Promise<boolean> {
    const batch = this.gathering;
    if (write.scores?.length) {
      const scores = (batch.scores ??= new Map());
      for (const score of write.scores) scores.set(score.playerId, score);
    }
    if (write.askings?.length) (batch.askings ??= []).push(...write.askings);
    if (write.snapshot) {
      batch.snapshot = write.snapshot;
      this.refresh = false; // a step's snapshot carries the current roster
    }
    if (write.autoRotate !== undefined) batch.autoRotate = write.autoRotate;
    // Asked for before the drain: a batch with nothing to store is settled there only if awaited.
    const done = batch.whenDone();
    this.kick();
    return done;
  }

  /** Commits whatever is gathered; resolves when everything added so far is stored (or given up). */
  flush(): Promise<boolean> {
    return this.commitNow({});
  }

  /** Final flush: retries a few times at most, then gives up with an error in the log. */
  close(): Promise<boolean> {
    this.closing = true;
    return this.flush();
  }

  private now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }

  private schedule(delayMs: number): void {
    // Taken as soon as the write in flight (or the listed answers) is done, or this turn ends.
    if (this.inFlight !== null || this.immediate !== null || this.afterListed) return;
    if (this.timer === null) this.options.shared?.waitFor(this.kicked);
    if (delayMs <= 0) {
      this.immediate = setImmediate(() => this.kick());
      return;
    }
    const due = Date.now() + delayMs;
    if (this.timer !== null && this.timerDueMs <= due) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerDueMs = due;
    this.timer = setTimeout(() => this.kick(), delayMs);
    this.timer.unref();
  }

  /** The shared commits' way in, called from another room's event: a bug here is logged, not thrown at that room. */
  private readonly kicked = (): void => this.safely(() => this.kick());

  private kick(): void {
    if (this.immediate !== null || this.timer !== null) this.options.shared?.unwait(this.kicked);
    if (this.immediate !== null) {
      clearImmediate(this.immediate);
      this.immediate = null;
    }
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
      this.timerDueMs = Infinity;
    }
    if (this.inFlight === null) this.drain();
  }

  /**
   * Writes what is gathered, then (when it is committed) what gathered meanwhile, one batch at a
   * time until nothing is left. Without a promise or an async frame per batch: at 1,000 small
   * games a batch is mostly one answer, and those were a sixth of the room path's garbage (issue 26).
   */
  private drain(): void {
    // Listed answers already on their way: what comes after them waits for them.
    if (this.listed > 0 && this.listedIn !== this.options.shared!.generation) {
      this.afterListed = true;
      return;
    }
    const batch = this.gathering;
    if (this.refresh && !batch.snapshot) batch.snapshot = this.options.refreshSnapshot();
    this.refresh = false;
    if (batch.isEmpty) {
      // Nothing to store: whoever waits for it (a flush) is told at once, or once the listed answers are in.
      if (batch.awaited && this.listed > 0) this.afterListed = true;
      else if (batch.awaited) {
        this.gathering = new Gathering();
        batch.settle(true);
      }
      return;
    }
    this.gathering = new Gathering();
    this.send(batch);
  }

  /** Hands a batch over (or commits it): the room's one write in flight. */
  private send(batch: Gathering): void {
    // Only what the batch carries: most are one answer, with no scores, askings or newcomers.
    const write: CommitBatch = { sessionId: this.options.sessionId, answers: batch.answers, scores: batch.scores ? [...batch.scores.values()] : NO_SCORES };
    if (batch.askings) write.askings = batch.askings;
    if (batch.snapshot) write.snapshot = batch.snapshot;
    if (batch.autoRotate !== undefined) write.autoRotate = batch.autoRotate;
    if (batch.joined?.length) write.joined = batch.joined;
    this.inFlight = { batch, write };
    this.lastCommitAtMs = this.now();
    const done: CommitDone = (failed, err) => {
      if (!failed) this.written(batch, true);
      else void this.retry(write, err).then((committed) => this.written(batch, committed));
    };
    if (this.options.shared) this.options.shared.hand(write, done);
    else reportTo(done, this.options.commit(write));
  }

  /** ListOwner: a listed answer is committed. */
  listedCommitted(confirm: () => void): void {
    this.confirm(confirm);
    if (--this.listed > 0 || !this.afterListed) return;
    this.afterListed = false;
    if (this.inFlight === null) this.safely(() => this.drain());
  }

  /**
   * ListOwner: the listed answers' transaction failed. They go in front of the batch this room
   * handed over to the same transaction, if any; otherwise they are a batch of their own, handed
   * over (and retried) before whatever the room gathered since.
   */
  listedReturned(answers: AnswerWrite[], confirms: (() => void)[]): void {
    this.listed -= answers.length;
    this.afterListed = false;
    this.safely(() => {
      const inFlight = this.inFlight;
      if (inFlight) {
        // In place: the shared commits are about to write this very object alone.
        inFlight.write.answers = answers.concat(inFlight.write.answers);
        inFlight.batch.onCommitted = confirms.concat(inFlight.batch.onCommitted);
        return;
      }
      this.send(Gathering.of(answers, confirms));
    });
  }

  private confirm(confirm: () => void): void {
    try {
      confirm();
    } catch (err) {
      // A bug: the answer is stored; the batch's other confirmations and the room's writes go on.
      this.options.log.error({ err, sessionId: this.options.sessionId }, 'confirming a committed answer failed');
    }
  }

  /** A batch's outcome: its confirmations go out (committed), its waiters are told, and the next batch goes. */
  private written(batch: Gathering, committed: boolean): void {
    if (committed) for (const confirm of batch.onCommitted) this.confirm(confirm);
    batch.settle(committed);
    this.inFlight = null;
    // Called from the shared commits' loop over every room of a transaction: a bug here must not keep the others waiting.
    this.safely(() => this.drain());
  }

  private safely(take: () => void): void {
    try {
      take();
    } catch (err) {
      this.options.log.error({ err, sessionId: this.options.sessionId }, 'taking the next batch failed');
    }
  }

  /** The retry policy, once the first attempt failed (DESIGN §16): resolves false only when given up while closing. */
  private retry(write: CommitBatch, err: unknown): Promise<boolean> {
    const what = `committing ${write.answers.length} answer(s), ${write.scores.length} score(s)${write.snapshot ? ' and the snapshot' : ''}`;
    return retryWrite(() => this.options.commit(write), what, this.options.log, () => this.closing, { failedOnce: err });
  }
}
