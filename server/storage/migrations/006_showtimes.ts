import { type Kysely, sql } from 'kysely';

/**
 * Showtimes and automatic pre-shows (DESIGN §13). Each auditorium gains its pre-show settings;
 * each showtime carries the claim of its pre-show (state, the copy it made, when it stops), so
 * every step is taken by one conditional update and happens once, across restarts and instances.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('auditoriums')
    .addColumn('pre_show_session_id', 'text', (c) => c.references('sessions.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('auditoriums')
    .addColumn('pre_show_lead_minutes', 'integer', (c) => c.notNull().defaultTo(20).check(sql`pre_show_lead_minutes between 1 and 120`))
    .execute();
  await db.schema
    .alterTable('auditoriums')
    .addColumn('pre_show_end_minutes', 'integer', (c) => c.notNull().defaultTo(2).check(sql`pre_show_end_minutes between 0 and 60`))
    .execute();

  await db.schema
    .createTable('showtimes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('auditorium_id', 'text', (c) => c.notNull().references('auditoriums.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    // UTC ISO-8601 (sorts as text); the offset it was written with names the copy "… 19:30".
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('utc_offset_minutes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('pre_show_state', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`pre_show_state in ('pending', 'live', 'done', 'skipped')`),
    )
    // The copy of the template; set null if an operator deletes that session.
    .addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('set null'))
    // Fixed when the pre-show is claimed, so a settings change cannot move a running pre-show's end.
    .addColumn('pre_show_ends_at', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('note', 'text')
    .execute();
  await db.schema.createIndex('showtimes_auditorium_idx').on('showtimes').columns(['auditorium_id', 'starts_at']).execute();
  await db.schema.createIndex('showtimes_state_idx').on('showtimes').columns(['pre_show_state', 'starts_at']).execute();
  await db.schema.createIndex('showtimes_session_idx').on('showtimes').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('showtimes').ifExists().execute();
  await db.schema.alterTable('auditoriums').dropColumn('pre_show_end_minutes').execute();
  await db.schema.alterTable('auditoriums').dropColumn('pre_show_lead_minutes').execute();
  await db.schema.alterTable('auditoriums').dropColumn('pre_show_session_id').execute();
}
