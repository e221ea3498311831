/**
 * The live game's writes on SQLite as prepared statements on a raw connection, and one shared live
 * transaction as plain data: the answers to log, then each session's writes in order
 * (DbRoomStorage builds it). `writeLiveWork` writes it on the event loop's connection
 * (ScoreRepository.transactionNow) or on the live writer's (live-writer.ts), so both run the same
 * statements. No Kysely here: the live writer's thread loads this file, and Kysely alone took
 * 0.2–0.3 s to load there.
 */
import type { SQLiteDatabase, SQLiteStatement } from './sqlite-driver.js';

/** What a step changes on the session's row. */
export interface LiveRowChange {
  /** The resume snapshot as JSON (null: nothing to resume) and the question index it is at. */
  snapshot?: { liveJson: string | null; currentQuestionIndex: number };
  autoRotate?: boolean;
}

export interface Asking {
  asking: number;
  questionId: string;
  askedAt: string;
}

/** An answer as stored (`answer_log`, `answers`). */
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

/** What one transaction did to the answer log: rows logged (by session) and sessions settled (the rowids moved). */
export interface LogChanges {
  added: { sessionId: string; rowid: number }[];
  settled: Map<string, number[]>;
}

/** The answer log's and the scores' writes on a connection (scores.ts, DirectSqliteWrites). */
interface LogWrites {
  logAnswers(answers: readonly AnswerRecord[]): void;
  settle(sessionId: string, committed?: readonly number[]): void;
  upsertScores(sessions: readonly { sessionId: string; scores: readonly ScoreWriteRow[] }[]): void;
}

/** One session's writes besides its answers, in the order written. */
export interface LivePlan {
  sessionId: string;
  /** The logged answers move into `answers` (scores.ts). */
  settle: boolean;
  row: LiveRowChange | undefined;
  /** The stored roster is replaced by the snapshot's. */
  clearRoster: boolean;
  joined: string[];
  askings: Asking[];
  scores: ScoreWriteRow[];
}

export interface LiveWork {
  /** Every batch's answers, in order: each settle finds its session's among them. */
  answers: AnswerRecord[];
  plans: LivePlan[];
  /**
   * For each session settled, its rowids logged and committed before (the live writer's
   * connection does not keep the list: the event loop's does).
   */
  logged?: Record<string, number[]>;
}

/** Inside a transaction: every answer and each session's writes, each kind in as few statements as it takes. */
export function writeLiveWork(direct: LogWrites, live: LiveRowStatements, work: LiveWork): void {
  if (work.answers.length > 0) direct.logAnswers(work.answers);
  for (const plan of work.plans) {
    const { sessionId } = plan;
    if (plan.settle) direct.settle(sessionId, work.logged?.[sessionId]);
    if (plan.row) live.storeRowNow(sessionId, plan.row);
    if (plan.clearRoster) live.clearRosterNow(sessionId);
    if (plan.joined.length > 0) live.appendRosterNow(sessionId, plan.joined);
    if (plan.askings.length > 0) live.insertAskingsNow(sessionId, plan.askings);
  }
  direct.upsertScores(work.plans);
}

const ANSWER_COLUMNS = 'session_id, player_id, question_id, asking, selected_index, is_correct, points_earned, elapsed_ms, answered_at';

/** Moves logged rows, given as a JSON array of rowids, of one session into `answers`, in key order: each index page is written once; rowid order among a player's answers keeps the first. */
export const SETTLE_LOGGED_SQL = `insert into answers (${ANSWER_COLUMNS}) select ${ANSWER_COLUMNS} from answer_log
  where rowid in (select value from json_each(?)) and session_id = ?
  order by asking, player_id, rowid on conflict (session_id, asking, player_id) do nothing`;
export const CLEAR_LOGGED_SQL = 'delete from answer_log where rowid in (select value from json_each(?)) and session_id = ?';


/** Rowids of answers logged and not settled yet, by session, per connection: every repository on it shares them. */
const loggedOn = new WeakMap<SQLiteDatabase, Map<string, number[]>>();

/**
 * The live game's hot writes on SQLite (answers, the answer log and its settling, scores), as
 * statements prepared once and run on the raw connection (answers, log rows and scores several
 * rows at a time, MultiRowInsert): the same SQL as the Kysely versions in scores.ts, without building
 * and compiling a query for every batch (in a 10,000-phone answer burst that was most of the
 * writes' JavaScript time, docs/PERFORMANCE.md). Used only inside a transaction: a Kysely one,
 * which holds the connection, a live one on the live writer's thread, or `transactionNow`'s, which
 * runs whole in one synchronous call while no Kysely transaction is open. Either way the rows join
 * that transaction and nothing else can interleave.
 */
export class DirectSqliteWrites {
  private readonly answerInsert: MultiRowInsert;
  private readonly logInsert: MultiRowInsert;
  private readonly scoreUpsert: MultiRowInsert;
  private settleLog: SQLiteStatement | undefined;
  private clearLog: SQLiteStatement | undefined;
  private readonly logged: Map<string, number[]>;
  /** The open transaction's logged rows and settled sessions: taken at its end, applied to `logged` if it committed. */
  private added: LogChanges['added'] = [];
  private settled: LogChanges['settled'] = new Map();
  /**
   * BEGIN IMMEDIATE, `work`, COMMIT (ROLLBACK on a throw): better-sqlite3's wrapper, made once.
   * Immediate: the live writer's connection commits too (live-writer.ts), and a transaction that
   * read before one of its commits could not write after it.
   */
  readonly runInTransaction: (work: () => void) => void;

  /**
   * `settleOnOpen`: the first instance on a connection moves whatever an earlier run left in the
   * log into `answers`. Not on the live writer's connection, which opens while this process's log
   * is in use.
   */
  constructor(
    readonly sqlite: SQLiteDatabase,
    settleOnOpen = true,
  ) {
    let logged = loggedOn.get(sqlite);
    if (!logged) {
      loggedOn.set(sqlite, (logged = new Map()));
      if (settleOnOpen) settleWholeLog(sqlite);
    }
    this.logged = logged;
    const inTransaction = sqlite.transaction((work: () => void) => work());
    this.runInTransaction = (work) => inTransaction.immediate(work);
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

  /**
   * The session's logged rows (committed, and logged in this transaction) into `answers`, found by
   * rowid. `committed`: those logged before, when another connection's instance keeps the list.
   */
  settle(sessionId: string, committed: readonly number[] = this.logged.get(sessionId) ?? []): void {
    const rowids = [...committed];
    for (const row of this.added) if (row.sessionId === sessionId) rowids.push(row.rowid);
    if (rowids.length === 0) return;
    this.settleLog ??= this.sqlite.prepare(SETTLE_LOGGED_SQL);
    this.clearLog ??= this.sqlite.prepare(CLEAR_LOGGED_SQL);
    const list = JSON.stringify(rowids);
    this.settleLog.run(list, sessionId);
    this.clearLog.run(list, sessionId);
    this.settled.set(sessionId, rowids);
  }

  /** The session's rows logged and committed, not settled yet (a copy). */
  loggedRowids(sessionId: string): number[] {
    return [...(this.logged.get(sessionId) ?? [])];
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

/**
 * The live runner's per-step writes besides answers and scores (live-writes.ts) on SQLite, as
 * statements prepared once on one connection: inside a Kysely transaction on the event loop's, or
 * in a live transaction on either connection (`writeLiveWork`).
 */
export class LiveRowStatements {
  private readonly statements = new Map<string, SQLiteStatement>();

  constructor(private readonly sqlite: SQLiteDatabase) {}

  storeRowNow(sessionId: string, change: LiveRowChange): void {
    const { snapshot, autoRotate } = change;
    if (!snapshot) {
      if (autoRotate !== undefined) this.prepared('update sessions set auto_rotate = ? where id = ?').run(autoRotate ? 1 : 0, sessionId);
      return;
    }
    // Every question's start and close stores one: its statement is picked, not built, each time.
    const onlyIfLive = snapshot.liveJson !== null ? " and status = 'live'" : '';
    if (autoRotate === undefined) {
      this.prepared(`update sessions set live_state = ?, current_question_index = ? where id = ?${onlyIfLive}`).run(snapshot.liveJson, snapshot.currentQuestionIndex, sessionId);
    } else {
      this.prepared(`update sessions set live_state = ?, current_question_index = ?, auto_rotate = ? where id = ?${onlyIfLive}`).run(
        snapshot.liveJson,
        snapshot.currentQuestionIndex,
        autoRotate ? 1 : 0,
        sessionId,
      );
    }
  }

  clearRosterNow(sessionId: string): void {
    this.prepared('delete from live_roster where session_id = ?').run(sessionId);
  }

  appendRosterNow(sessionId: string, playerIds: readonly string[]): void {
    const statement = this.prepared('insert into live_roster (session_id, player_id) values (?, ?) on conflict (session_id, player_id) do nothing');
    for (const playerId of playerIds) statement.run(sessionId, playerId);
  }

  insertAskingsNow(sessionId: string, askings: readonly Asking[]): void {
    const statement = this.prepared('insert into question_askings (session_id, asking, question_id, asked_at) values (?, ?, ?, ?) on conflict (session_id, asking) do nothing');
    for (const a of askings) statement.run(sessionId, a.asking, a.questionId, a.askedAt);
  }

  private prepared(text: string): SQLiteStatement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.sqlite.prepare(text)));
    return statement;
  }
}
