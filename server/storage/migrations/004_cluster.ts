import type { Kysely } from 'kysely';

/**
 * Multi-instance mode (DESIGN §9): the fencing epoch of each session's owner. An instance that
 * takes a session's lease in Redis increments it; every game write checks it in its own
 * transaction, so an owner that lost its lease (paused, cut off) cannot write any more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('owner_epoch', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('owner_epoch').execute();
}
