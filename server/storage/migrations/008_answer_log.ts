import { type Kysely, sql } from 'kysely';

/**
 * The answer log (SQLite's live game, scores.ts): answers committed while a question is open are
 * appended here and moved into `answers` in one statement at the next quiet step of the game (the
 * reveal ending). Appending touches a page or two per commit; `answers`' two indexes on random
 * player ids cost a page per answer per index in every small commit (docs/PERFORMANCE.md). Same
 * columns, check and foreign keys as `answers` (a log row is refused, and cascades away, exactly
 * as an answer would, so moving it never fails), no index: it only ever holds the answers of the
 * last question or two. PostgreSQL has it but never writes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('answer_log')
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('asking', 'integer', (c) => c.notNull())
    .addColumn('selected_index', 'integer', (c) => c.notNull().check(sql`selected_index between 0 and 3`))
    .addColumn('is_correct', 'integer', (c) => c.notNull())
    .addColumn('points_earned', 'integer', (c) => c.notNull())
    .addColumn('elapsed_ms', 'integer', (c) => c.notNull())
    .addColumn('answered_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('answer_log').execute();
}
