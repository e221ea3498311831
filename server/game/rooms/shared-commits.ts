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
 * The fence checks every batch's session inside the shared transaction, before anything is
 * written (DbRoomStorage), so a batch is never stored under an epoch that is not its owner's.
 *
 * A turn does not always end soon. Saturated, the event loop reads sockets for most of a second
 * in one poll phase (libuv takes up to 48 × 1,024 ready sockets before it returns to timers and
 * immediates), and every confirmation, result and question start waited for that phase's end. So
 * rooms also say when a batch starts waiting for their immediate or timer (`waitFor`), and every
 * room event `poke`s: once a room's batch has waited `OVERDUE_MS`, or `FULL_BATCHES` sessions'
 * batches wait, and no transaction is in flight, the waiting rooms hand over at once (with
 * whatever was handed over meanwhile) and the transaction runs inside whatever phase is running.
 *
 * The list: an answer of a room with nothing else on its way to storage (most answers of a
 * thousand small games) is not made a batch of its room at all; the room puts it on the
 * instance's list (`list`), and the next transaction writes the whole list ahead of the rooms'
 * batches, then sends its confirmations before the batches' outcomes. A batch, an immediate and a
 * callback per answer were a fifth to a third of the room path's CPU at 1,000 sessions × 10
 * phones (`npm run bench -- rooms`, docs/PERFORMANCE.md, session 65). If that transaction fails,
 * each room gets its listed answers back (`ListOwner.listedReturned`) and commits them before
 * anything it handed over since, as it would a batch of its own. Not in multi-instance mode,
 * where every write checks its session's owner (`RoomStorage.fenced`).
 */
import type { AnswerWrite, CommitBatch, RoomStorage } from './storage.js';

/**
 * A shared transaction starts at least this long after the previous one started. Every commit
 * rewrites each page it touches (on SQLite a WAL frame per page: with a thousand sessions, a page
 * or more per session in every commit), so under a burst fewer, fuller commits write far less:
 * at 1,000 sessions × 10 phones, 20–25 ms cut the writes per phone by a seventh and the round's
 * CPU by about a tenth (docs/PERFORMANCE.md). After a quiet moment the next commit is not delayed.
 */
export const SHARED_COMMIT_GAP_MS = 20;

/**
 * A room's batch that has waited this long is committed at the next room event, even in the
 * middle of a long turn: under 1.5 s a phone still trusts its socket (DESIGN §14), and saturated at
 * 1,000 sessions × 10 phones the tail of the confirmations was at that limit. Not sooner: each
 * commit rewrites the pages it touches, and the answers of a long turn share their room's batch;
 * after 20 or 50 ms of waiting the round cost 7–15 % more CPU, which a saturated server pays back
 * in latency (docs/PERFORMANCE.md, session 51).
 */
export const OVERDUE_MS = 150;

/**
 * This many sessions' batches waiting (in their rooms or handed over here) are committed at the
 * next room event too, however briefly they have waited. Saturated, a long poll phase gathers a
 * thousand sessions' answers, and each of their confirmations and results waited for the whole
 * phase (or the 150 ms above); a transaction of 200 sessions is fuller than most made at a turn's
 * end (85–95 at 1,000 sessions × 10 phones), so it costs no more per batch. Measured against 100
 * and 400 (docs/PERFORMANCE.md, session 53).
 */
export const FULL_BATCHES = 200;

/** Told once a handed-over batch is committed (`failed` false) or refused (the error). */
export type CommitDone = (failed: boolean, err?: unknown) => void;

/** Tells `done` how a write that returns a promise ended. */
export function reportTo(done: CommitDone, written: Promise<void>): void {
  written.then(() => done(false), (err: unknown) => done(true, err));
}

type Kick = () => void;

interface Pending {
  batch: CommitBatch;
  done: CommitDone;
}

/** A room whose answers go on the list (group-commit.ts). */
export interface ListOwner {
  /** A listed answer of this room is committed: its confirmation goes out, in the room's order. */
  listedCommitted(confirm: () => void): void;
  /** The transaction failed: the room's listed answers of it, in order, to commit before anything else of the room. */
  listedReturned(answers: AnswerWrite[], confirms: (() => void)[]): void;
}

/** Answers on the list, with their confirmations and rooms: side by side, not an object per answer. */
class Listed {
  readonly answers: AnswerWrite[] = [];
  readonly confirms: (() => void)[] = [];
  readonly owners: ListOwner[] = [];
  /** How many rooms the answers are of: `FULL_BATCHES` counts sessions, as their batches would have. */
  rooms = 0;
}

export class SharedCommits {
  private gathering: Pending[] = [];
  private listed = new Listed();
  /** Transactions started: what was handed over or listed while this is unchanged goes in the next one. */
  private started = 0;
  private scheduled: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private running = false;
  private lastStartedAtMs = Number.NEGATIVE_INFINITY;
  /** Rooms whose next batch waits for their own immediate or timer: how to hand it over now. */
  private readonly waiting = new Set<Kick>();
  /**
   * Since when a room's batch has waited for its own immediate or timer. Not the batches handed
   * over here: a room whose batch is out already (one game of thousands, answering all the time)
   * gathers its next as before, with everything the turn reads (committing those sooner only cost
   * more, smaller transactions).
   */
  private waitingSinceMs = Infinity;

  private readonly minGapMs: number;
  private readonly overdueMs: number;
  private readonly fullBatches: number;
  private readonly now: () => number;

  /** Answers may go on the list (`list`): the storage writes several sessions at once, unfenced. */
  readonly lists: boolean;

  constructor(
    private readonly storage: Pick<RoomStorage, 'commit' | 'commitMany' | 'fenced'>,
    options: { minGapMs?: number; overdueMs?: number; fullBatches?: number; now?: () => number } = {},
  ) {
    this.minGapMs = options.minGapMs ?? SHARED_COMMIT_GAP_MS;
    this.overdueMs = options.overdueMs ?? OVERDUE_MS;
    this.fullBatches = options.fullBatches ?? FULL_BATCHES;
    this.now = options.now ?? (() => performance.now());
    this.lists = storage.commitMany !== undefined && !storage.fenced;
  }

  /** Changes when a transaction starts: a room's answers listed under the same value have not gone out yet. */
  get generation(): number {
    return this.started;
  }

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
   * Puts a room's answer on the list (only when `lists`): written ahead of every batch in the next
   * transaction, then `owner.listedCommitted(confirm)`. The room must hand over nothing of its own
   * until its listed answers are committed, unless it does so before `generation` changes.
   * `firstOfRoom`: the room's first answer on this list.
   */
  list(answer: AnswerWrite, confirm: () => void, owner: ListOwner, firstOfRoom: boolean): void {
    const { listed } = this;
    listed.answers.push(answer);
    listed.confirms.push(confirm);
    listed.owners.push(owner);
    if (firstOfRoom) listed.rooms++;
    // An answer listed waits as it would have in its room's own batch (`poke`).
    if (this.waitingSinceMs === Infinity) this.waitingSinceMs = this.now();
    this.schedule();
  }

  /** A room's batch waits for the room's own immediate or timer; `kick` hands it over at once. */
  waitFor(kick: Kick): void {
    if (!this.storage.commitMany) return;
    if (this.waitingSinceMs === Infinity) this.waitingSinceMs = this.now();
    this.waiting.add(kick);
  }

  /** The room handed its batch over (or has nothing left to hand). */
  unwait(kick: Kick): void {
    this.waiting.delete(kick);
  }

  /**
   * Called with every room event, in whatever phase of the event loop: if a room's batch has
   * waited `OVERDUE_MS` or `FULL_BATCHES` batches wait, the previous transaction started a gap ago
   * and none is in flight, the waiting rooms hand their batches over and they are committed now,
   * with those handed over meanwhile, not at the end of a turn that may last a second.
   */
  poke(): void {
    if (this.running || this.waitingSinceMs === Infinity) return;
    const nowMs = this.now();
    const due = nowMs - this.waitingSinceMs >= this.overdueMs || this.waiting.size + this.gathering.length + this.listed.rooms >= this.fullBatches;
    if (!due || nowMs - this.lastStartedAtMs < this.minGapMs) return;
    for (const kick of this.waiting) kick();
    this.waiting.clear();
    // What the hand-overs scheduled (or was scheduled before) is this transaction.
    this.cancelScheduled();
    if (this.hasWork) void this.drain();
    else this.waitingSinceMs = Infinity;
  }

  private get hasWork(): boolean {
    return this.gathering.length > 0 || this.listed.answers.length > 0;
  }

  private cancelScheduled(): void {
    if (this.scheduled === null) return;
    // One of the two: clearing a handle of the other kind does nothing.
    clearTimeout(this.scheduled as NodeJS.Timeout);
    clearImmediate(this.scheduled as NodeJS.Immediate);
    this.scheduled = null;
  }

  /**
   * At the end of this turn (the check phase, right after the sockets were read), unless one is in
   * flight, or once the gap since the previous one has passed.
   */
  private schedule(): void {
    if (this.scheduled !== null || this.running) return;
    const go = () => {
      this.scheduled = null;
      if (this.hasWork) void this.drain();
    };
    const waitMs = this.lastStartedAtMs + this.minGapMs - this.now();
    this.scheduled = waitMs > 0 ? setTimeout(go, waitMs) : setImmediate(go);
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      const group = this.gathering;
      const listed = this.listed;
      this.gathering = [];
      this.listed = new Listed();
      this.started++;
      this.lastStartedAtMs = this.now();
      // Rooms still waiting on a timer of their own wait from now on, for the next one.
      this.waitingSinceMs = this.waiting.size > 0 ? this.lastStartedAtMs : Infinity;
      await this.write(group, listed);
    } finally {
      this.running = false;
      // Handed over or listed while it ran: the next one, after the gap.
      if (this.hasWork) this.schedule();
    }
  }

  private async write(group: Pending[], listed: Listed): Promise<void> {
    if (group.length === 1 && listed.answers.length === 0) return this.alone(group[0]);
    try {
      await this.storage.commitMany!(group.map((p) => p.batch), listed.answers);
    } catch {
      // Someone's batch spoiled the shared transaction (nothing of it is stored): the listed
      // answers back to their rooms first (each puts its own in front of its batch here, if it
      // has one), then each batch on its own.
      returnListed(listed);
      await Promise.all(group.map((p) => this.alone(p)));
      return;
    }
    // The answers' confirmations before any batch's outcome: a step's results come after them.
    const { confirms, owners } = listed;
    for (let i = 0; i < owners.length; i++) owners[i].listedCommitted(confirms[i]);
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

/** Each room's listed answers of a failed transaction, back to it in order. */
function returnListed(listed: Listed): void {
  const byOwner = new Map<ListOwner, { answers: AnswerWrite[]; confirms: (() => void)[] }>();
  listed.owners.forEach((owner, i) => {
    let mine = byOwner.get(owner);
    if (!mine) byOwner.set(owner, (mine = { answers: [], confirms: [] }));
    mine.answers.push(listed.answers[i]);
    mine.confirms.push(listed.confirms[i]);
  });
  for (const [owner, mine] of byOwner) owner.listedReturned(mine.answers, mine.confirms);
}
