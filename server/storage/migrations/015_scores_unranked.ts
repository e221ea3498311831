import type { Kysely } from 'kysely';

/**
 * The scores lose their rank index (005). A total that changes moves its entry in that index, so
 * every question's close rewrote a rank-index page per session beside the row and the key: at
 * 1,000 live sessions 18 % of SQLite's WAL frames, and on one game of 10,000 about half of the
 * close's score writes, which its results wait for (issue 26). What it served, the results'
 * leaderboard in rank order, now sorts the session's scores (found by the primary key) for each
 * page: some milliseconds for 10,000 players, after the show.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scores_rank_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('scores_rank_idx')
    .on('scores')
    .columns(['session_id', 'points_total desc', 'reached_at', 'player_id'])
    .execute();
}
