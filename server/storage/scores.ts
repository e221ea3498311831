import { type Kysely, type Transaction, sql } from 'kysely';
import { screenNameSql } from './players.js';
import type { Database } from './schema.js';
import type { StorageHealth } from './health.js';
import type { SQLiteDatabase } from './sqlite-driver.js';
import { type AnswerRecord, DirectSqliteWrites, type LiveRowStatements, type LiveWork, type LogChanges, type ScoreWriteRow, type SessionScores, writeLiveWork } from './live-commit.js';
import type { LiveWriter } from './live-writer.js';
import { inChunks } from './util.js';

export interface ScoreRow {
  playerId: string;
  name: string;
  pointsTotal: number;
  reachedAt: string;
}

export type { AnswerRecord, ScoreWriteRow } from './live-commit.js';
export { CLEAR_LOGGED_SQL, SETTLE_LOGGED_SQL } from './live-commit.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Answers and per-session scores: written by the live runner (inside its own transactions, hence
 * the `db` parameter), read back on resume, cleared by restart.
 *
 * On SQLite, answers committed in the runner's transactions go to `answer_log` first: appending
 * writes a page or two per commit, where `answers`' indexes on random player ids cost a page per
 * answer per index in every one of a question's many small commits (2.5× the CPU and 8× the WAL,
 * docs/PERFORMANCE.md). `settleAnswers` moves a session's log into `answers`: the runner does it at
 * the game's quiet steps (the reveal ending, a hold, a slide: DbRoomStorage.commit), readers of
 * answers before they read. The log has no index: a session's rows are found by the rowids this
 * process logged them under (DirectSqliteWrites). The first answer stored for a player and asking
 * wins, in `answers` as in the log.
 */
export class ScoreRepository {
  private readonly direct: DirectSqliteWrites | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    sqlite?: SQLiteDatabase,
    private readonly health?: StorageHealth,
    /** SQLite: the live game's shared transactions go to this thread (live-writer.ts) while it runs. */
    private readonly writer?: LiveWriter,
  ) {
    this.direct = sqlite && new DirectSqliteWrites(sqlite);
  }

  /** The live writes go to the live writer's thread (`commitLive`), which commits them in the order handed over. */
  get writesOnThread(): boolean {
    return this.direct !== undefined && this.writer?.available === true;
  }

  /**
   * The live runner's shared transaction on SQLite (live-commit.ts): on the live writer's thread,
   * or, without one, `transactionNow` on this connection. Null, with nothing written, where
   * neither can be (PostgreSQL; a Kysely transaction holding the connection and no writer).
   */
  commitLive(work: LiveWork, live: LiveRowStatements | undefined): Promise<void> | null {
    const { direct, writer } = this;
    if (!direct || !live) return null;
    if (writer?.available) return this.commitOnWriter(writer, direct, work);
    writer?.warm();
    return this.transactionNow(() => writeLiveWork(direct, live, work)) ? Promise.resolve() : null;
  }

  private async commitOnWriter(writer: LiveWriter, direct: DirectSqliteWrites, work: LiveWork): Promise<void> {
    const logged: Record<string, number[]> = {};
    for (const plan of work.plans) if (plan.settle) logged[plan.sessionId] = direct.loggedRowids(plan.sessionId);
    let changes: LogChanges;
    try {
      changes = await writer.write({ ...work, logged });
    } catch (err) {
      this.health?.failed(err);
      throw err;
    }
    direct.apply(changes);
    this.health?.recovered();
  }

  async listScores(sessionId: string): Promise<ScoreRow[]> {
    const rows = await this.db
      .selectFrom('scores as s')
      .innerJoin('players as p', 'p.id', 's.player_id')
      .select(['s.player_id', screenNameSql.as('name'), 's.points_total', 's.reached_at'])
      .where('s.session_id', '=', sessionId)
      // A late game write may land after a kick took the score away: a kicked player never ranks.
      // A literal: a bound 0 or 1 in a join re-prepares it on SQLite on every run (join-params.ts).
      .where('p.kicked', '=', sql.lit(0))
      .orderBy('s.points_total', 'desc')
      .orderBy('s.reached_at')
      .orderBy('s.player_id')
      .execute();
    return rows.map((r) => ({ playerId: r.player_id, name: r.name, pointsTotal: r.points_total, reachedAt: r.reached_at }));
  }

  /** The answers of one asking, with each player's name (for leaderboard rows after a resume). */
  async answersForAsking(sessionId: string, asking: number): Promise<(AnswerRecord & { name: string })[]> {
    await this.settleAnswers(this.db, sessionId); // SQLite: what the log holds is in `answers` now
    const rows = await this.db
      .selectFrom('answers as a')
      .innerJoin('players as p', 'p.id', 'a.player_id')
      .selectAll('a')
      .select(screenNameSql.as('name'))
      .where('a.session_id', '=', sessionId)
      .where('a.asking', '=', asking)
      .execute();
    return rows.map((r) => ({
      sessionId: r.session_id,
      playerId: r.player_id,
      name: r.name,
      questionId: r.question_id,
      asking: r.asking,
      selectedIndex: r.selected_index,
      isCorrect: r.is_correct === 1,
      pointsEarned: r.points_earned,
      elapsedMs: r.elapsed_ms,
      answeredAt: r.answered_at,
    }));
  }

  /**
   * The live runner's answers (DbRoomStorage.commit): on SQLite inside a transaction, appended to
   * the answer log until `settleAnswers`; otherwise straight into `answers`.
   */
  async logAnswers(db: Db, answers: AnswerRecord[]): Promise<void> {
    if (this.direct && db.isTransaction) return this.direct.logAnswers(answers);
    return this.insertAnswers(db, answers);
  }

  /** Inserts answers; one already stored for the same asking is kept as it was (the first counts). */
  async insertAnswers(db: Db, answers: AnswerRecord[]): Promise<void> {
    if (this.direct && db.isTransaction) return this.direct.insertAnswers(answers);
    const rows = answers.map((a) => ({
      session_id: a.sessionId,
      player_id: a.playerId,
      question_id: a.questionId,
      asking: a.asking,
      selected_index: a.selectedIndex,
      is_correct: a.isCorrect ? 1 : 0,
      points_earned: a.pointsEarned,
      elapsed_ms: Math.round(a.elapsedMs),
      answered_at: a.answeredAt,
    }));
    await inChunks(rows, (chunk) =>
      db
        .insertInto('answers')
        .values(chunk)
        .onConflict((oc) => oc.columns(['session_id', 'asking', 'player_id']).doNothing())
        .execute(),
    );
  }

  /**
   * Moves the session's logged answers into `answers` (SQLite; nothing to do on PostgreSQL, which
   * writes `answers` directly). Outside a transaction it opens one.
   */
  async settleAnswers(db: Db, sessionId: string): Promise<void> {
    if (!this.direct) return;
    if (db.isTransaction) return this.direct.settle(sessionId);
    await this.transaction((trx) => this.settleAnswers(trx, sessionId));
  }

  /**
   * A transaction for the live writes: on SQLite the answer log's rowids (DirectSqliteWrites) are
   * kept or given back by its outcome. Every transaction that logs or settles answers runs here.
   */
  async transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const direct = this.direct;
    if (!direct) return this.db.transaction().execute(work);
    let changes: LogChanges | undefined;
    const result = await this.db.transaction().execute(async (trx) => {
      try {
        return await work(trx);
      } finally {
        // Taken while this transaction still holds the connection: a `transactionNow` that runs
        // between its COMMIT or ROLLBACK and this function resuming starts from none of them.
        changes = direct.take();
      }
    });
    // Committed (a failed work or COMMIT has thrown, and its changes are dropped).
    direct.apply(changes!);
    return result;
  }

  /**
   * `transaction` without a promise, on SQLite: `work` runs in one transaction on the raw connection
   * and calls only the direct writes (live-commit.ts). At 1,000 sessions the live commits'
   * promises, async frames and Kysely's BEGIN and COMMIT round them were most of what the storage
   * allocated (issue 26). False, with nothing run, on PostgreSQL, or while a Kysely transaction
   * holds the connection (its statements must not join this one): then use `transaction`.
   * What the database says is told to StorageHealth, as ObservedDriver does for Kysely's queries.
   */
  private transactionNow(work: () => void): boolean {
    const direct = this.direct;
    if (!direct || direct.sqlite.inTransaction) return false;
    try {
      direct.runInTransaction(work);
    } catch (err) {
      direct.take(); // rolled back: nothing of it happened
      this.health?.failed(err);
      throw err;
    }
    direct.apply(direct.take());
    this.health?.recovered();
    return true;
  }

  /** Writes absolute totals (idempotent, so a retried batch cannot double-count). */
  async upsertScores(db: Db, sessionId: string, scores: ScoreWriteRow[]): Promise<void> {
    await this.upsertManyScores(db, [{ sessionId, scores }]);
  }

  /**
   * `upsertScores` for several sessions in a few statements: a shared transaction on PostgreSQL
   * carries hundreds of sessions' closes, and a statement each was a round trip each (issue 26).
   */
  async upsertManyScores(db: Db, sessions: readonly SessionScores[]): Promise<void> {
    if (this.direct && db.isTransaction) return this.direct.upsertScores(sessions);
    const rows = sessions.flatMap(({ sessionId, scores }) =>
      scores.map((s) => ({ session_id: sessionId, player_id: s.playerId, points_total: s.pointsTotal, reached_at: s.reachedAt })),
    );
    await inChunks(rows, (chunk) =>
      db
        .insertInto('scores')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['session_id', 'player_id']).doUpdateSet((eb) => ({
            points_total: eb.ref('excluded.points_total'),
            reached_at: eb.ref('excluded.reached_at'),
          })),
        )
        .execute(),
    );
  }

  /** A batch of answers in one transaction (a burst of hundreds arrives within a second). */
  async saveAnswers(answers: AnswerRecord[]): Promise<void> {
    if (answers.length === 0) return;
    await this.db.transaction().execute((trx) => this.insertAnswers(trx, answers));
  }

  async saveScores(sessionId: string, scores: ScoreWriteRow[]): Promise<void> {
    if (scores.length === 0) return;
    await this.db.transaction().execute((trx) => this.upsertScores(trx, sessionId, scores));
  }

  async clearSession(trx: Db, sessionId: string): Promise<void> {
    await trx.deleteFrom('question_askings').where('session_id', '=', sessionId).execute();
    // A scan of the log (no index on it): a restart is rare, and the log holds a question or two.
    // Rowids still listed for the session match nothing any more (or a later row of it: settled early).
    await trx.deleteFrom('answer_log').where('session_id', '=', sessionId).execute();
    await trx.deleteFrom('answers').where('session_id', '=', sessionId).execute();
    await trx.deleteFrom('scores').where('session_id', '=', sessionId).execute();
  }
}
