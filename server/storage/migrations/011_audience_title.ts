import type { Kysely } from 'kysely';

/**
 * The title the audience sees, when it is not the session's own (DESIGN §17): a pre-show copy is
 * titled "{template} — {film} {time}" for the operator, but its screens and phones show the
 * template's title. Null: the audience sees `title`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('audience_title', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('audience_title').execute();
}
