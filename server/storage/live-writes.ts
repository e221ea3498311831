/**
 * The live runner's per-step writes besides answers and scores (DbRoomStorage): the resume
 * snapshot on the session's row, the roster's newcomers, the questions that went out. Each runs
 * inside the runner's transaction, with Kysely on PostgreSQL, where a shared transaction writes
 * each kind for all its sessions in one statement (`storeRows` and the like).
 *
 * On SQLite they run as prepared statements on the raw connection, as the answers do
 * (scores.ts): at 1,000 sessions every question's start and close is a step per session, and
 * building and compiling these three small queries through Kysely for each was most of the
 * writes' JavaScript time (issue 26). The statements are the Kysely versions' SQL; inside a Kysely
 * transaction the connection is held, so they join it and nothing interleaves. The `…Now` methods
 * are the same writes called directly, in ScoreRepository.transactionNow.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema.js';
import type { SQLiteDatabase, SQLiteStatement } from './sqlite-driver.js';
import { inChunks } from './util.js';

type Db = Kysely<Database> | Transaction<Database>;

/** What a step changes on the session's row. */
export interface LiveRowChange {
  /** The resume snapshot as JSON (null: nothing to resume) and the question index it is at. */
  snapshot?: { liveJson: string | null; currentQuestionIndex: number };
  autoRotate?: boolean;
}

/** One session's row change. */
export interface SessionRowChange {
  sessionId: string;
  change: LiveRowChange;
}

export interface Asking {
  asking: number;
  questionId: string;
  askedAt: string;
}

export class LiveWrites {
  private readonly statements = new Map<string, SQLiteStatement>();

  constructor(private readonly sqlite?: SQLiteDatabase) {}

  // Each write for any number of sessions at once: a shared transaction carries hundreds of
  // sessions' question starts and closes, and on PostgreSQL a statement each was a round trip
  // each (issue 26). Each kind is one statement (or a few chunks) whatever the number of sessions.

  /** A snapshot is stored only while the session is live: never revives one stopped meanwhile. */
  async storeRows(db: Db, rows: readonly SessionRowChange[]): Promise<void> {
    if (this.sqlite && db.isTransaction) {
      for (const { sessionId, change } of rows) this.storeRowNow(sessionId, change);
      return;
    }
    // A question's start or close changes only the snapshot: all of those in one statement. An
    // operator's auto-rotate switch is rare, and goes alone.
    const together = this.sqlite ? [] : rows.filter((r) => r.change.snapshot && r.change.autoRotate === undefined);
    if (together.length > 1) {
      const ids = together.map((r) => r.sessionId);
      const states = together.map((r) => r.change.snapshot!.liveJson);
      const indexes = together.map((r) => r.change.snapshot!.currentQuestionIndex);
      // As `updateRow`: a snapshot to resume from only while the session is live.
      await sql`update sessions as s set live_state = v.live_state, current_question_index = v.question_index
        from unnest(${ids}::text[], ${states}::text[], ${indexes}::int[]) as v(id, live_state, question_index)
        where s.id = v.id and (v.live_state is null or s.status = 'live')`.execute(db);
    }
    const done = new Set(together.length > 1 ? together : []);
    for (const row of rows) if (!done.has(row)) await this.updateRow(db, row.sessionId, row.change);
  }

  /** A snapshot with a fresh roster is stored in the same transaction: the newcomers listed before it are in it. */
  async clearRosters(db: Db, sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    if (this.sqlite && db.isTransaction) {
      for (const sessionId of sessionIds) this.clearRosterNow(sessionId);
      return;
    }
    await db.deleteFrom('live_roster').where('session_id', 'in', sessionIds).execute();
  }

  /** Appends newcomers; one already listed stays as it is. */
  async appendRosters(db: Db, newcomers: readonly { sessionId: string; playerIds: readonly string[] }[]): Promise<void> {
    if (this.sqlite && db.isTransaction) {
      for (const { sessionId, playerIds } of newcomers) this.appendRosterNow(sessionId, playerIds);
      return;
    }
    const rows = newcomers.flatMap(({ sessionId, playerIds }) => playerIds.map((playerId) => ({ session_id: sessionId, player_id: playerId })));
    await inChunks(rows, (chunk) =>
      db
        .insertInto('live_roster')
        .values(chunk)
        .onConflict((oc) => oc.columns(['session_id', 'player_id']).doNothing())
        .execute(),
    );
  }

  /** Records that questions went out (idempotent: a retried commit writes each once). */
  async insertManyAskings(db: Db, sessions: readonly { sessionId: string; askings: readonly Asking[] }[]): Promise<void> {
    if (this.sqlite && db.isTransaction) {
      for (const { sessionId, askings } of sessions) this.insertAskingsNow(sessionId, askings);
      return;
    }
    const rows = sessions.flatMap(({ sessionId, askings }) => askings.map((a) => ({ session_id: sessionId, asking: a.asking, question_id: a.questionId, asked_at: a.askedAt })));
    await inChunks(rows, (chunk) =>
      db
        .insertInto('question_askings')
        .values(chunk)
        .onConflict((oc) => oc.columns(['session_id', 'asking']).doNothing())
        .execute(),
    );
  }

  private async updateRow(db: Db, sessionId: string, change: LiveRowChange): Promise<void> {
    const { snapshot, autoRotate } = change;
    if (!snapshot && autoRotate === undefined) return;
    const onlyIfLive = snapshot !== undefined && snapshot.liveJson !== null;
    let update = db.updateTable('sessions').where('id', '=', sessionId);
    if (snapshot) update = update.set({ live_state: snapshot.liveJson, current_question_index: snapshot.currentQuestionIndex });
    if (onlyIfLive) update = update.where('status', '=', 'live');
    if (autoRotate !== undefined) update = update.set({ auto_rotate: autoRotate ? 1 : 0 });
    await update.execute();
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
    if (!statement) this.statements.set(text, (statement = this.sqlite!.prepare(text)));
    return statement;
  }
}
