import { type Kysely, sql, SqliteAdapter } from 'kysely';

/**
 * SQLite's `answers` lose `answers_player_idx` and the foreign key on `player_id` it served (issue
 * 26). Every query of `answers` names the session; the index only let a player's delete cascade
 * without a scan. It is keyed by random player ids, so each answer settled from the log wrote a page
 * of its own into it: without it a settle costs about half (docs/PERFORMANCE.md, "Session 61"). A
 * rebuild of a million answers takes under two seconds, once.
 * A player's answers are now deleted with the player, through their session (PlayerRepository.delete).
 * No answer of the live game can name a missing player: its answers reach `answers` only from the
 * log, which keeps the key, and the delete and the settles are serial transactions on one connection.
 *
 * SQLite cannot drop a foreign key in place, so the table is rebuilt in one transaction. PostgreSQL
 * keeps both: it writes `answers` directly, where only the key stops a late answer of a deleted
 * player, and its index costs no settle.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, false);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, true);
}

async function rebuild(db: Kysely<unknown>, withPlayerKey: boolean): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  const playerKey = withPlayerKey ? sql`references players (id) on delete cascade` : sql``;
  await db.transaction().execute(async (trx) => {
    await sql`create table answers_rebuilt (
      session_id text not null references sessions (id) on delete cascade,
      player_id text not null ${playerKey},
      question_id text not null references questions (id) on delete cascade,
      asking integer not null,
      selected_index integer not null check (selected_index between 0 and 3),
      is_correct integer not null,
      points_earned integer not null,
      elapsed_ms integer not null,
      answered_at text not null,
      constraint answers_pk primary key (session_id, asking, player_id)
    )`.execute(trx);
    // In key order: each page of the new table and index is written once.
    await sql`insert into answers_rebuilt select session_id, player_id, question_id, asking, selected_index, is_correct,
      points_earned, elapsed_ms, answered_at from answers order by session_id, asking, player_id`.execute(trx);
    await sql`drop table answers`.execute(trx);
    await sql`alter table answers_rebuilt rename to answers`.execute(trx);
    await trx.schema.createIndex('answers_question_idx').on('answers').column('question_id').execute();
    if (withPlayerKey) await trx.schema.createIndex('answers_player_idx').on('answers').column('player_id').execute();
  });
}
