/**
 * The instance's commits, shared across sessions (issue 26, DESIGN §18).
 *
 * Each room keeps its own group commit (group-commit.ts): its batches go out one at a time and in
 * order, its answers' `answer_accepted` wait for their batch, a failed batch is retried there.
 * What this adds is below that: the batches that rooms hand over in one turn of the event loop
 * (and, while a shared transaction is in flight or the gap after the previous one's start has not
 * passed, all those handed over meanwhile) are written in ONE transaction. With a thousand small
 * games answering at once, one transaction per room per answer or two was most of a round's
 * database time; now a turn costs one commit however many sessions it touches. A room's batch is confirmed only when the shared transaction commits, so
 * the rule "a confirmation is a commit" (DESIGN §8) holds as before.
 *
 * Isolation: if the shared transaction fails for any reason (one session fenced by its owner's
 * epoch in multi-instance mode, a foreign key refusing a deleted player, the database hiccuping),
 * every batch of it is written again on its own, each with its own outcome. A session that lost
 * its lease, or whose rows went away, never holds up another; the others are committed, and the
 * failed one is reported to its own room (whose group commit retries or gives up as before).
 * The per-session fence runs inside the shared transaction for each batch (DbRoomStorage), so a
 * batch is never stored under an epoch that is not its owner's.
 */
import type { CommitBatch, RoomStorage } from './storage.js';

/**
 * A shared transaction starts at least this long after the previous one started. Every commit
 * rewrites each page it touches (on SQLite a WAL frame per page: with a thousand sessions, a page
 * or more per session in every commit), so under a burst fewer, fuller commits write far less:
 * at 1,000 sessions × 10 phones, 20–25 ms cut the writes per phone by a seventh and the round's
 * CPU by about a tenth (docs/PERFORMANCE.md). After a quiet moment the next commit is not delayed.
 */
export const SHARED_COMMIT_GAP_MS = 20;

/** Told once a handed-over batch is committed (`failed` false) or refused (the error). */
export type CommitDone = (failed: boolean, err?: unknown) => void;

/** Tells `done` how a write that returns a promise ended. */
export function reportTo(done: CommitDone, written: Promise<void>): void {
  written.then(() => done(false), (err: unknown) => done(true, err));
}

interface Pending {
  batch: CommitBatch;
  done: CommitDone;
}

export class SharedCommits {
  private gathering: Pending[] = [];
  private scheduled = false;
  private running = false;
  private lastStartedAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly storage: Pick<RoomStorage, 'commit' | 'commitMany'>,
    private readonly minGapMs = SHARED_COMMIT_GAP_MS,
  ) {}

  /** Commits the batch with whatever other sessions hand over in the same turn; resolves once it is durable. */
  commit(batch: CommitBatch): Promise<void> {
    if (!this.storage.commitMany) return this.storage.commit(batch);
    return new Promise<void>((resolve, reject) => this.hand(batch, (failed, err) => (failed ? reject(err) : resolve())));
  }

  /**
   * `commit` without a promise: `done` is called once the batch is durable or refused. A room's
   * group commit hands over every batch this way, an answer alone in most of them at 1,000 small
   * games: a promise, its executor and its reactions per answer were garbage (issue 26).
   */
  hand(batch: CommitBatch, done: CommitDone): void {
    if (!this.storage.commitMany) {
      reportTo(done, this.storage.commit(batch));
      return;
    }
    this.gathering.push({ batch, done });
    this.schedule();
  }

  /**
   * At the end of this turn (the check phase, right after the sockets were read), unless one is in
   * flight, or once the gap since the previous one has passed.
   */
  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    const go = () => {
      this.scheduled = false;
      void this.drain();
    };
    const waitMs = this.lastStartedAtMs + this.minGapMs - performance.now();
    if (waitMs > 0) setTimeout(go, waitMs);
    else setImmediate(go);
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      const group = this.gathering;
      this.gathering = [];
      this.lastStartedAtMs = performance.now();
      await this.write(group);
    } finally {
      this.running = false;
      // Handed over while it ran: the next one, after the gap.
      if (this.gathering.length > 0) this.schedule();
    }
  }

  private async write(group: Pending[]): Promise<void> {
    if (group.length === 1) return this.alone(group[0]);
    try {
      await this.storage.commitMany!(group.map((p) => p.batch));
    } catch {
      // Someone's batch spoiled the shared transaction (nothing of it is stored): each on its own.
      await Promise.all(group.map((p) => this.alone(p)));
      return;
    }
    for (const p of group) p.done(false);
  }

  private async alone(p: Pending): Promise<void> {
    try {
      await this.storage.commit(p.batch);
    } catch (err) {
      p.done(true, err);
      return;
    }
    p.done(false);
  }
}
