import { type Kysely, type Transaction, sql } from 'kysely';
import { screenNameSql } from './players.js';
import type { Database } from './schema.js';
import type { StorageHealth } from './health.js';
import type { SQLiteDatabase, SQLiteStatement } from './sqlite-driver.js';
import { inChunks } from './util.js';

export interface ScoreRow {
  playerId: string;
  name: string;
  pointsTotal: number;
  reachedAt: string;
}

export interface AnswerRecord {
  sessionId: string;
  playerId: string;
  questionId: string;
  asking: number;
  selectedIndex: number;
  isCorrect: boolean;
  pointsEarned: number;
  elapsedMs: number;
  answeredAt: string;
}

export interface ScoreWriteRow {
  playerId: string;
  pointsTotal: number;
  reachedAt: string;
}

type Db = Kysely<Database> | Transaction<Database>;

const ANSWER_COLUMNS = 'session_id, player_id, question_id, asking, selected_index, is_correct, points_earned, elapsed_ms, answered_at';

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
  ) {
    this.direct = sqlite && new DirectSqliteWrites(sqlite);
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
   * and calls only the `…Now` writes (here and in LiveWrites). At 1,000 sessions the live commits'
   * promises, async frames and Kysely's BEGIN and COMMIT round them were most of what the storage
   * allocated (issue 26). False, with nothing run, on PostgreSQL, or while a Kysely transaction
   * holds the connection (its statements must not join this one): then use `transaction`.
   * What the database says is told to StorageHealth, as ObservedDriver does for Kysely's queries.
   */
  transactionNow(work: () => void): boolean {
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

  /** Inside `transactionNow`: `logAnswers`. */
  logAnswersNow(answers: readonly AnswerRecord[]): void {
    this.direct!.logAnswers(answers);
  }

  /** Inside `transactionNow`: `settleAnswers`. */
  settleAnswersNow(sessionId: string): void {
    this.direct!.settle(sessionId);
  }

  /** Inside `transactionNow`: `upsertScores` for several sessions at once. */
  upsertScoresNow(sessions: readonly SessionScores[]): void {
    this.direct!.upsertScores(sessions);
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

/** Moves logged rows, given as a JSON array of rowids, of one session into `answers`, in key order: each index page is written once; rowid order among a player's answers keeps the first. */
export const SETTLE_LOGGED_SQL = `insert into answers (${ANSWER_COLUMNS}) select ${ANSWER_COLUMNS} from answer_log
  where rowid in (select value from json_each(?)) and session_id = ?
  order by asking, player_id, rowid on conflict (session_id, asking, player_id) do nothing`;
export const CLEAR_LOGGED_SQL = 'delete from answer_log where rowid in (select value from json_each(?)) and session_id = ?';

/** What one transaction did to the answer log: rows logged (by session) and sessions settled (the rowids moved). */
interface LogChanges {
  added: { sessionId: string; rowid: number }[];
  settled: Map<string, number[]>;
}

/** Rowids of answers logged and not settled yet, by session, per connection: every repository on it shares them. */
const loggedOn = new WeakMap<SQLiteDatabase, Map<string, number[]>>();

/**
 * The live game's hot writes on SQLite (answers, the answer log and its settling, scores), as
 * statements prepared once and run on the raw connection (answers, log rows and scores several
 * rows at a time, MultiRowInsert): the same SQL as the Kysely versions above, without building
 * and compiling a query for every batch (in a 10,000-phone answer burst that was most of the
 * writes' JavaScript time, docs/PERFORMANCE.md). Used only inside a transaction: a Kysely one,
 * which holds the connection, or `transactionNow`'s, which runs whole in one synchronous call while
 * no Kysely transaction is open. Either way the rows join that transaction and nothing else can
 * interleave.
 */
class DirectSqliteWrites {
  private readonly answerInsert: MultiRowInsert;
  private readonly logInsert: MultiRowInsert;
  private readonly scoreUpsert: MultiRowInsert;
  private settleLog: SQLiteStatement | undefined;
  private clearLog: SQLiteStatement | undefined;
  private readonly logged: Map<string, number[]>;
  /** The open transaction's logged rows and settled sessions: taken at its end, applied to `logged` if it committed. */
  private added: LogChanges['added'] = [];
  private settled: LogChanges['settled'] = new Map();
  /** BEGIN, `work`, COMMIT (ROLLBACK on a throw): better-sqlite3's wrapper, made once. */
  readonly runInTransaction: (work: () => void) => void;

  constructor(readonly sqlite: SQLiteDatabase) {
    let logged = loggedOn.get(sqlite);
    if (!logged) {
      loggedOn.set(sqlite, (logged = new Map()));
      settleWholeLog(sqlite);
    }
    this.logged = logged;
    this.runInTransaction = sqlite.transaction((work: () => void) => work());
    this.answerInsert = new MultiRowInsert(
      sqlite,
      ANSWER_ARITY,
      (values) => `insert into answers (${ANSWER_COLUMNS}) values ${values} on conflict (session_id, asking, player_id) do nothing`,
    );
    this.logInsert = new MultiRowInsert(sqlite, ANSWER_ARITY, (values) => `insert into answer_log (${ANSWER_COLUMNS}) values ${values}`);
    this.scoreUpsert = new MultiRowInsert(
      sqlite,
      4,
      (values) => `insert into scores (session_id, player_id, points_total, reached_at) values ${values}
        on conflict (session_id, player_id) do update set points_total = excluded.points_total, reached_at = excluded.reached_at`,
    );
  }

  /** Rows are taken in order, so of two for the same asking in one batch the first is kept, as in `answers`. */
  insertAnswers(answers: AnswerRecord[]): void {
    this.answerInsert.write(answers, answerArgs);
  }

  /**
   * Appends to the answer log (see ScoreRepository); `settle` moves them into `answers`. Several
   * rows a statement: a row's rowid is one above the last (SQLite gives a new row the table's
   * largest rowid plus one), so a statement's rows hold the `rows` rowids up to its last.
   */
  logAnswers(answers: readonly AnswerRecord[]): void {
    this.logInsert.write(answers, answerArgs, (result, start, rows) => {
      if (result.changes !== rows) throw new Error(`the answer log took ${result.changes} of ${rows} rows`);
      const first = Number(result.lastInsertRowid) - rows + 1;
      for (let r = 0; r < rows; r++) this.added.push({ sessionId: answers[start + r].sessionId, rowid: first + r });
    });
  }

  /** Scores of several sessions, several rows a statement. */
  upsertScores(sessions: readonly SessionScores[]): void {
    const rows: [string, ScoreWriteRow][] = [];
    for (const { sessionId, scores } of sessions) for (const score of scores) rows.push([sessionId, score]);
    this.scoreUpsert.write(rows, scoreArgs);
  }

  /** The session's logged rows (committed, and logged in this transaction) into `answers`, found by rowid. */
  settle(sessionId: string): void {
    const rowids = [...(this.logged.get(sessionId) ?? [])];
    for (const row of this.added) if (row.sessionId === sessionId) rowids.push(row.rowid);
    if (rowids.length === 0) return;
    this.settleLog ??= this.sqlite.prepare(SETTLE_LOGGED_SQL);
    this.clearLog ??= this.sqlite.prepare(CLEAR_LOGGED_SQL);
    const list = JSON.stringify(rowids);
    this.settleLog.run(list, sessionId);
    this.clearLog.run(list, sessionId);
    this.settled.set(sessionId, rowids);
  }

  /** The open transaction's changes, as it ends; the next one starts from none. */
  take(): LogChanges {
    const changes = { added: this.added, settled: this.settled };
    this.added = [];
    this.settled = new Map();
    return changes;
  }

  /** A transaction committed: its rows are logged and its settles done (one rolled back is dropped). */
  apply({ added, settled }: LogChanges): void {
    for (const { sessionId, rowid } of added) {
      let rowids = this.logged.get(sessionId);
      if (!rowids) this.logged.set(sessionId, (rowids = []));
      rowids.push(rowid);
    }
    for (const [sessionId, rowids] of settled) {
      const moved = new Set(rowids);
      const left = this.logged.get(sessionId)?.filter((rowid) => !moved.has(rowid)) ?? [];
      if (left.length > 0) this.logged.set(sessionId, left);
      else this.logged.delete(sessionId);
    }
  }
}

/** The bound values of an answer row, in ANSWER_COLUMNS' order. */
const ANSWER_ARITY = 9;

function answerArgs(a: AnswerRecord, args: unknown[], at: number): void {
  args[at] = a.sessionId;
  args[at + 1] = a.playerId;
  args[at + 2] = a.questionId;
  args[at + 3] = a.asking;
  args[at + 4] = a.selectedIndex;
  args[at + 5] = a.isCorrect ? 1 : 0;
  args[at + 6] = a.pointsEarned;
  args[at + 7] = Math.round(a.elapsedMs);
  args[at + 8] = a.answeredAt;
}

/**
 * Most rows one multi-row statement writes. Statements are made for powers of two only (seven
 * sizes, each prepared once), so a batch of n rows takes n / 64 statements and at most six more:
 * each run costs its own call, bindings check, cursor and result (issue 26; an answer's commit
 * 7 % and a close 11 % cheaper in `bench/commit-cost.ts`, docs/PERFORMANCE.md "Session 60").
 */
const MAX_ROWS_PER_STATEMENT = 64;

/** The rows the next statement writes: the largest power of two left, at most MAX_ROWS_PER_STATEMENT. */
function rowsPerStatement(left: number): number {
  return left >= MAX_ROWS_PER_STATEMENT ? MAX_ROWS_PER_STATEMENT : 1 << (31 - Math.clz32(left));
}

type RunResult = ReturnType<SQLiteStatement['run']>;

/** One INSERT of rows of `arity` values, run over any number of rows several at a time (above). */
class MultiRowInsert {
  /** Prepared on first use, by number of rows. */
  private readonly statements = new Map<number, SQLiteStatement>();

  constructor(
    private readonly sqlite: SQLiteDatabase,
    private readonly arity: number,
    /** The SQL for a VALUES list. */
    private readonly sqlOf: (values: string) => string,
  ) {}

  /** Writes every row; `fill` puts a row's values at `args[at…]`, `ran` sees each statement's result and its rows. */
  write<T>(rows: readonly T[], fill: (row: T, args: unknown[], at: number) => void, ran?: (result: RunResult, start: number, count: number) => void): void {
    const { arity } = this;
    for (let start = 0; start < rows.length; ) {
      const count = rowsPerStatement(rows.length - start);
      const args = new Array<unknown>(count * arity);
      for (let r = 0; r < count; r++) fill(rows[start + r], args, r * arity);
      const result = this.statementFor(count).run(args);
      ran?.(result, start, count);
      start += count;
    }
  }

  private statementFor(count: number): SQLiteStatement {
    let statement = this.statements.get(count);
    if (!statement) {
      const row = `(${new Array<string>(this.arity).fill('?').join(', ')})`;
      this.statements.set(count, (statement = this.sqlite.prepare(this.sqlOf(new Array<string>(count).fill(row).join(', ')))));
    }
    return statement;
  }
}

function scoreArgs([sessionId, score]: [string, ScoreWriteRow], args: unknown[], at: number): void {
  args[at] = sessionId;
  args[at + 1] = score.playerId;
  args[at + 2] = score.pointsTotal;
  args[at + 3] = score.reachedAt;
}

/** One session's scores to upsert. */
export interface SessionScores {
  sessionId: string;
  scores: readonly ScoreWriteRow[];
}

/**
 * What the log holds when a process opens the database was logged by an earlier one (a crash
 * before its settle): nobody knows its rowids, so it moves into `answers` now, whole. Skipped on a
 * schema older than the log (a test's older release).
 */
function settleWholeLog(sqlite: SQLiteDatabase): void {
  if (!sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = 'answer_log'").get()) return;
  sqlite.transaction(() => {
    sqlite
      .prepare(`insert into answers (${ANSWER_COLUMNS}) select ${ANSWER_COLUMNS} from answer_log order by session_id, asking, player_id, rowid on conflict (session_id, asking, player_id) do nothing`)
      .run();
    sqlite.prepare('delete from answer_log').run();
  })();
}
