/**
 * The live runner's per-step writes besides answers and scores (DbRoomStorage): the resume
 * snapshot on the session's row, the roster's newcomers, the questions that went out. Each runs
 * inside the runner's transaction, with Kysely on PostgreSQL.
 *
 * On SQLite they run as prepared statements on the raw connection, as the answers do
 * (scores.ts): at 1,000 sessions every question's start and close is a step per session, and
 * building and compiling these three small queries through Kysely for each was most of the
 * writes' JavaScript time (issue 26). The statements are the Kysely versions' SQL; inside a Kysely
 * transaction the connection is held, so they join it and nothing interleaves. The `…Now` methods
 * are the same writes called directly, in ScoreRepository.transactionNow.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';
import type { SQLiteDatabase, SQLiteStatement } from './sqlite-driver.js';

type Db = Kysely<Database> | Transaction<Database>;

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

export class LiveWrites {
  private readonly statements = new Map<string, SQLiteStatement>();

  constructor(private readonly sqlite?: SQLiteDatabase) {}

  /** A snapshot is stored only while the session is live: never revives one stopped meanwhile. */
  async storeRow(db: Db, sessionId: string, change: LiveRowChange): Promise<void> {
    const { snapshot, autoRotate } = change;
    if (!snapshot && autoRotate === undefined) return;
    if (this.sqlite && db.isTransaction) return this.storeRowNow(sessionId, change);
    const onlyIfLive = snapshot !== undefined && snapshot.liveJson !== null;
    let update = db.updateTable('sessions').where('id', '=', sessionId);
    if (snapshot) update = update.set({ live_state: snapshot.liveJson, current_question_index: snapshot.currentQuestionIndex });
    if (onlyIfLive) update = update.where('status', '=', 'live');
    if (autoRotate !== undefined) update = update.set({ auto_rotate: autoRotate ? 1 : 0 });
    await update.execute();
  }

  /** A snapshot with a fresh roster is stored in the same transaction: the newcomers listed before it are in it. */
  async clearRoster(db: Db, sessionId: string): Promise<void> {
    if (this.sqlite && db.isTransaction) return this.clearRosterNow(sessionId);
    await db.deleteFrom('live_roster').where('session_id', '=', sessionId).execute();
  }

  /** Appends newcomers; one already listed stays as it is. */
  async appendRoster(db: Db, sessionId: string, playerIds: string[]): Promise<void> {
    if (playerIds.length === 0) return;
    if (this.sqlite && db.isTransaction) return this.appendRosterNow(sessionId, playerIds);
    await db
      .insertInto('live_roster')
      .values(playerIds.map((playerId) => ({ session_id: sessionId, player_id: playerId })))
      .onConflict((oc) => oc.columns(['session_id', 'player_id']).doNothing())
      .execute();
  }

  /** Records that questions went out (idempotent: a retried commit writes each once). */
  async insertAskings(db: Db, sessionId: string, askings: Asking[]): Promise<void> {
    if (askings.length === 0) return;
    if (this.sqlite && db.isTransaction) return this.insertAskingsNow(sessionId, askings);
    await db
      .insertInto('question_askings')
      .values(askings.map((a) => ({ session_id: sessionId, asking: a.asking, question_id: a.questionId, asked_at: a.askedAt })))
      .onConflict((oc) => oc.columns(['session_id', 'asking']).doNothing())
      .execute();
  }

  // The same writes on SQLite, synchronous: inside a Kysely transaction (above) or in
  // ScoreRepository.transactionNow.

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

  appendRosterNow(sessionId: string, playerIds: string[]): void {
    const statement = this.prepared('insert into live_roster (session_id, player_id) values (?, ?) on conflict (session_id, player_id) do nothing');
    for (const playerId of playerIds) statement.run(sessionId, playerId);
  }

  insertAskingsNow(sessionId: string, askings: Asking[]): void {
    const statement = this.prepared('insert into question_askings (session_id, asking, question_id, asked_at) values (?, ?, ?, ?) on conflict (session_id, asking) do nothing');
    for (const a of askings) statement.run(sessionId, a.asking, a.questionId, a.askedAt);
  }

  private prepared(sql: string): SQLiteStatement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.sqlite!.prepare(sql)));
    return statement;
  }
}
