import type { Kysely } from 'kysely';

/**
 * The answer log by session (issue 26): settling one session's answers (scores.ts) read the whole
 * log, every live session's last question or two, so with a thousand small games each settle
 * scanned everyone's rows and a round's cost grew with the sessions on the instance. With this
 * index a settle, and a resume's read of the log, touch that session's rows only. An append lands
 * at the end of its session's key range: one more page per commit, not one per answer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('answer_log_session').on('answer_log').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('answer_log_session').execute();
}
