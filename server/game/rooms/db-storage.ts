/**
 * RoomStorage on the shared Kysely store (SQLite or PostgreSQL). Times are epoch ms in the
 * engine and ISO-8601 text in the database; this is where they are converted.
 *
 * Writes tolerate rows that vanished meanwhile (a player or question deleted during the show):
 * such rows are dropped rather than failing, and so endlessly retrying, a whole batch. Checking
 * first would cost every burst two lookups, so a batch is written as it is, and only when a
 * foreign key refuses it is it written again, filtered, in a new transaction.
 */
import type { Transaction } from 'kysely';
import { parseLiveSnapshot, type Program, type StoredAnswer, type StoredScore } from '../engine/index.js';
import type { Asking, LiveRowChange } from '../../storage/live-writes.js';
import type { Database } from '../../storage/schema.js';
import type { AnswerRecord as AnswerRow, ScoreWriteRow } from '../../storage/scores.js';
import type { Store } from '../../storage/store.js';
import { isForeignKeyError, isoOfMs as iso, parseJson } from '../../storage/util.js';
import { loadProgram } from './program-loader.js';
import type { AnswerWrite, CommitBatch, RoomSession, RoomStorage } from './storage.js';

/** Runs a write as it is; if a foreign key refuses it, once more dropping the rows that point nowhere. */
async function retryFilteredOnForeignKey(write: (filter: boolean) => Promise<void>): Promise<void> {
  try {
    await write(false);
  } catch (err) {
    if (!isForeignKeyError(err)) throw err;
    await write(true);
  }
}

async function existingIds(trx: Transaction<Database>, table: 'players' | 'questions' | 'sessions', ids: string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  const rows = await trx.selectFrom(table).select('id').where('id', 'in', unique).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * A check run first in every game write transaction, over every session it writes (in session
 * order, one query for them all); it throws FencedError when this process may no longer write one
 * of them (multi-instance mode: server/transport/cluster/fence.ts).
 */
export type WriteFence = (trx: Transaction<Database>, sessionIds: readonly string[]) => Promise<void>;

export class DbRoomStorage implements RoomStorage {
  constructor(
    private readonly store: Store,
    private readonly fence?: WriteFence,
  ) {}

  get fenced(): boolean {
    return this.fence !== undefined;
  }

  async listLiveSessionIds(): Promise<string[]> {
    return (await this.store.sessions.listByStatus('live')).map((s) => s.id);
  }

  async loadSession(sessionId: string): Promise<RoomSession | undefined> {
    const session = await this.store.sessions.get(sessionId);
    if (!session) return undefined;
    const stored = session.status === 'live' ? await this.store.sessions.getLiveState(sessionId) : null;
    let live = parseLiveSnapshot(parseJson<unknown>(stored, null));
    // Who joined after the snapshot's roster was written counts as well (migration 013).
    const joined = live ? await this.store.liveRoster.list(sessionId) : [];
    if (live && joined.length > 0) live = { ...live, roster: [...new Set([...(live.roster ?? []), ...joined])] };
    return {
      id: session.id,
      status: session.status,
      autoRotate: session.autoRotate,
      mediaItemsPerTransition: session.mediaItemsPerTransition,
      live,
      currentQuestionIndex: session.currentQuestionIndex,
    };
  }

  loadProgram(session: RoomSession): Promise<Program> {
    return loadProgram(this.store, session);
  }

  async loadScores(sessionId: string): Promise<StoredScore[]> {
    const rows = await this.store.scores.listScores(sessionId);
    return rows.map((r) => ({ playerId: r.playerId, name: r.name, pointsTotal: r.pointsTotal, reachedAtMs: Date.parse(r.reachedAt) }));
  }

  async loadAnswers(sessionId: string, asking: number): Promise<StoredAnswer[]> {
    // With the players' names: someone who answered before a restart and is not back yet still
    // gets a named leaderboard row when the question closes.
    const rows = await this.store.scores.answersForAsking(sessionId, asking);
    return rows.map(({ sessionId: _sessionId, answeredAt, ...answer }) => ({ ...answer, answeredAtMs: Date.parse(answeredAt) }));
  }

  /**
   * Answers, scores and the snapshot in one transaction: stored apart, a crash in between would
   * score a question again on resume (the snapshot would still say "question open"), or lose an
   * answer whose confirmation had gone out. On SQLite (WAL, synchronous=NORMAL) a commit survives
   * a crash of the process; on PostgreSQL (synchronous_commit on) it is on disk.
   */
  async commit(batch: CommitBatch): Promise<void> {
    await retryFilteredOnForeignKey((filter) =>
      !filter && this.commitNow([batch]) ? Promise.resolve() : this.store.scores.transaction((trx) => this.writeBatch(trx, batch, filter)),
    );
  }

  /**
   * Several sessions' batches in one transaction (SharedCommits). No foreign-key filtering here:
   * if any row is refused the whole transaction fails and SharedCommits writes each batch alone
   * through `commit`, which filters. In session order, so two instances' transactions (a handover
   * in flight) lock the sessions' rows in the same order on PostgreSQL. The `listed` answers (the
   * instance's list) go first: each of them was listed before anything its room handed over since.
   */
  async commitMany(batches: CommitBatch[], listed: AnswerWrite[] = []): Promise<void> {
    // Unfenced answers would be stored for a session this instance may no longer own.
    if (listed.length > 0 && this.fence) throw new Error('answers outside a batch cannot be fenced');
    const ordered = [...batches].sort((a, b) => byCodeUnits(a.sessionId, b.sessionId));
    if (this.commitNow(ordered, listed)) return;
    await this.store.scores.transaction(async (trx) => {
      if (this.fence) await this.fence(trx, ordered.map((b) => b.sessionId));
      await this.writePlans(trx, ordered.map(planOf), listed);
    });
  }

  /**
   * The batches written in one synchronous transaction, unfiltered (SQLite without a fence, the
   * connection free: ScoreRepository.transactionNow); false when that cannot be, nothing written.
   * A foreign key refusing a row throws as the asynchronous path does, and `commit` retries it filtered.
   */
  private commitNow(batches: CommitBatch[], listed: AnswerWrite[] = []): boolean {
    if (this.fence) return false;
    const { scores, liveWrites } = this.store;
    return scores.transactionNow(() => {
      const plans = batches.map(planOf);
      // Every batch's answers and scores in a few multi-row statements (issue 26: at 1,000
      // sessions a transaction carries dozens of small batches). The answers go first, so each
      // settle below finds its session's among them, as when each batch logged its own; the
      // listed ones before the batches' (listed earlier).
      const answers = answersOf(listed, plans);
      if (answers.length > 0) scores.logAnswersNow(answers);
      for (const plan of plans) {
        const { sessionId } = plan;
        if (plan.settle) scores.settleAnswersNow(sessionId);
        if (plan.row) liveWrites.storeRowNow(sessionId, plan.row);
        if (plan.clearRoster) liveWrites.clearRosterNow(sessionId);
        if (plan.joined.length > 0) liveWrites.appendRosterNow(sessionId, plan.joined);
        if (plan.askings.length > 0) liveWrites.insertAskingsNow(sessionId, plan.askings);
      }
      scores.upsertScoresNow(plans);
    });
  }

  private async writeBatch(trx: Transaction<Database>, batch: CommitBatch, filter: boolean): Promise<void> {
    // Multi-instance mode: answers, scores and snapshot are stored only by the session's owner.
    if (this.fence) await this.fence(trx, [batch.sessionId]);
    let plan = planOf(batch);
    if (filter) plan = await withoutDangling(trx, plan);
    await this.writePlans(trx, [plan]);
  }

  /**
   * The plans' writes inside a Kysely transaction, as `commitNow` makes them: each kind in one
   * statement for all the plans, a session's own writes in their order. On PostgreSQL each
   * statement is a round trip, and at 1,000 sessions over three instances a few per batch held
   * every confirmation for seconds (issue 26). What no plan carries is not called for (each call
   * an awaited promise).
   */
  private async writePlans(trx: Transaction<Database>, plans: BatchPlan[], listed: AnswerWrite[] = []): Promise<void> {
    const { scores, liveWrites } = this.store;
    const answers = answersOf(listed, plans);
    if (answers.length > 0) await scores.logAnswers(trx, answers);
    for (const plan of plans) if (plan.settle) await scores.settleAnswers(trx, plan.sessionId);
    const rows = plans.flatMap((p) => (p.row ? [{ sessionId: p.sessionId, change: p.row }] : []));
    if (rows.length > 0) await liveWrites.storeRows(trx, rows);
    const cleared = plans.filter((p) => p.clearRoster).map((p) => p.sessionId);
    if (cleared.length > 0) await liveWrites.clearRosters(trx, cleared);
    const joined = plans.filter((p) => p.joined.length > 0).map((p) => ({ sessionId: p.sessionId, playerIds: p.joined }));
    if (joined.length > 0) await liveWrites.appendRosters(trx, joined);
    const asked = plans.filter((p) => p.askings.length > 0);
    if (asked.length > 0) await liveWrites.insertManyAskings(trx, asked);
    if (plans.some((p) => p.scores.length > 0)) await scores.upsertManyScores(trx, plans);
  }
}

/** What one batch writes, in the order written: decided once for both ways of writing it. */
interface BatchPlan {
  sessionId: string;
  answers: AnswerRow[];
  /** The logged answers move into `answers` (SQLite, scores.ts). */
  settle: boolean;
  row: LiveRowChange | undefined;
  /** The stored roster is replaced by the snapshot's. */
  clearRoster: boolean;
  joined: string[];
  askings: Asking[];
  scores: ScoreWriteRow[];
}

function planOf(batch: CommitBatch): BatchPlan {
  const { sessionId, snapshot, autoRotate } = batch;
  const askings = batch.askings ?? [];
  return {
    sessionId,
    answers: batch.answers.map(answerRowOf),
    // A quiet step of the game (the reveal ending, a hold, a slide; not a question's start or
    // close, whose results and fan-out wait for their commit): the logged answers move into
    // `answers`. Readers settle the session first (answersForAsking, results).
    settle: (snapshot !== undefined || autoRotate !== undefined) && batch.scores.length === 0 && askings.length === 0,
    row:
      snapshot || autoRotate !== undefined
        ? {
            ...(snapshot ? { snapshot: { liveJson: snapshot.live && JSON.stringify(snapshot.live), currentQuestionIndex: snapshot.currentQuestionIndex } } : {}),
            ...(autoRotate !== undefined ? { autoRotate } : {}),
          }
        : undefined,
    // The snapshot's roster lists everyone present when it was taken: the newcomers appended
    // before it are in it; those of this batch are appended again after it.
    clearRoster: snapshot !== undefined,
    joined: batch.joined ?? [],
    askings: askings.map((a) => ({ asking: a.asking, questionId: a.questionId, askedAt: iso(a.askedAtMs) })),
    // In key order, so each page of the scores' key is written once: a first close inserts a row
    // for every player (10,000 in a full house), and in the engine's order they landed on pages at
    // random (the engine walks its answers in its map's order, pmap.ts).
    scores: batch.scores.map((s) => ({ playerId: s.playerId, pointsTotal: s.pointsTotal, reachedAt: iso(s.reachedAtMs) })).sort((a, b) => byCodeUnits(a.playerId, b.playerId)),
  };
}

/** Ids in the order both databases keep their text keys (code units, not the locale's order). */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The listed answers, then every plan's: each settle finds its session's among them, as when each batch logged its own. */
function answersOf(listed: AnswerWrite[], plans: BatchPlan[]): AnswerRow[] {
  const answers = listed.map(answerRowOf);
  for (const plan of plans) for (const answer of plan.answers) answers.push(answer);
  return answers;
}

/** Every answer of a batch, every second: its fields named, not spread (issue 26). */
function answerRowOf(a: AnswerWrite): AnswerRow {
  const { answer } = a;
  return {
    sessionId: a.sessionId,
    playerId: a.playerId,
    asking: a.asking,
    questionId: answer.questionId,
    selectedIndex: answer.selectedIndex,
    isCorrect: answer.isCorrect,
    pointsEarned: answer.pointsEarned,
    elapsedMs: answer.elapsedMs,
    answeredAt: iso(answer.answeredAtMs),
  };
}

/** The plan without the rows whose session, player or question is gone (deleted during the show). */
async function withoutDangling(trx: Transaction<Database>, plan: BatchPlan): Promise<BatchPlan> {
  const sessionExists = (await existingIds(trx, 'sessions', [plan.sessionId])).has(plan.sessionId);
  const players = await existingIds(trx, 'players', [...plan.answers.map((a) => a.playerId), ...plan.joined, ...plan.scores.map((s) => s.playerId)]);
  const questions = await existingIds(trx, 'questions', [...plan.answers.map((a) => a.questionId), ...plan.askings.map((a) => a.questionId)]);
  const kept = <T>(rows: T[], keep: (row: T) => boolean) => (sessionExists ? rows.filter(keep) : []);
  return {
    ...plan,
    answers: kept(plan.answers, (a) => players.has(a.playerId) && questions.has(a.questionId)),
    joined: kept(plan.joined, (playerId) => players.has(playerId)),
    askings: kept(plan.askings, (a) => questions.has(a.questionId)),
    scores: kept(plan.scores, (s) => players.has(s.playerId)),
  };
}
