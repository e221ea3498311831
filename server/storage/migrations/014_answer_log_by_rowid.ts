import type { Kysely } from 'kysely';

/**
 * The answer log (SQLite's, scores.ts) is settled by the rowids its process logged, no longer by
 * session: the session index cost a scattered page per session in nearly every commit of an answer
 * burst at 1,000 sessions (seven frames in ten of the WAL, issue 26). What a process did not log
 * itself (a crash's leftovers) it settles whole when it first writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('answer_log_session').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('answer_log_session').on('answer_log').column('session_id').execute();
}
