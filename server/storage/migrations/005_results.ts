import type { Kysely } from 'kysely';

/**
 * Results (DESIGN §10). Every asking of a question, written when the question goes out: the
 * answers alone cannot tell "asked, nobody answered" from "never asked". Askings go with their
 * session and question (cascade). The leaderboard is read in rank order, page by page, for
 * 10,000 players: an index in that order served each page without sorting the session's scores
 * (until 015 dropped it: the live game's score writes paid for it at every close).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('question_askings')
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('asking', 'integer', (c) => c.notNull())
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('asked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('question_askings_pk', ['session_id', 'asking'])
    .execute();
  await db.schema.createIndex('question_askings_question_idx').on('question_askings').column('question_id').execute();
  await db.schema
    .createIndex('scores_rank_idx')
    .on('scores')
    .columns(['session_id', 'points_total desc', 'reached_at', 'player_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('scores_rank_idx').ifExists().execute();
  await db.schema.dropTable('question_askings').ifExists().execute();
}
