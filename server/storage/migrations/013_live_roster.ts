import type { Kysely } from 'kysely';

/**
 * Players who joined a live game after its resume snapshot was last written (DESIGN §8, the
 * roster; docs/REALTIME.md). The snapshot's roster is rewritten at most once a second (a full
 * house's is tens of KB); each newcomer is appended here in the group commit of its connect, and
 * the rows are deleted when a snapshot with a fresh roster is stored. A resume awaits the
 * snapshot's roster plus these rows, so it knows everyone who was connected when the process died.
 * A handful of rows per session at a time; the primary key makes a repeated append a no-op.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('live_roster')
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('live_roster_pk', ['session_id', 'player_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('live_roster').execute();
}
