import { type Kysely, sql } from 'kysely';

/**
 * The consent-first prize draw (DESIGN §11): the session's draw settings, each player's consent
 * per session (with the text shown and when), and every draw with its winners. Consents and
 * winner rows go with the player (cascade), draws with the session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // JSON { enabled, prize, consentText }; null reads as "no draw".
  await db.schema.alterTable('sessions').addColumn('prize_draw', 'text').execute();

  await db.schema
    .createTable('prize_consents')
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('consent_text', 'text', (c) => c.notNull())
    .addColumn('consented_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('prize_consents_pk', ['session_id', 'player_id'])
    .execute();
  await db.schema.createIndex('prize_consents_player_idx').on('prize_consents').column('player_id').execute();

  await db.schema
    .createTable('prize_draws')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Who drew: the administrator's name is kept even if that account is removed later.
    .addColumn('drawn_by', 'text', (c) => c.notNull())
    .addColumn('prize', 'text', (c) => c.notNull())
    .addColumn('requested_count', 'integer', (c) => c.notNull().check(sql`requested_count between 1 and 10`))
    .addColumn('min_score', 'integer')
    .addColumn('eligible', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('prize_draws_session_idx').on('prize_draws').columns(['session_id', 'created_at']).execute();

  await db.schema
    .createTable('prize_draw_winners')
    .addColumn('draw_id', 'text', (c) => c.notNull().references('prize_draws.id').onDelete('cascade'))
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('points_total', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('prize_draw_winners_pk', ['draw_id', 'player_id'])
    .execute();
  await db.schema.createIndex('prize_draw_winners_player_idx').on('prize_draw_winners').column('player_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('prize_draw_winners').ifExists().execute();
  await db.schema.dropTable('prize_draws').ifExists().execute();
  await db.schema.dropTable('prize_consents').ifExists().execute();
  await db.schema.alterTable('sessions').dropColumn('prize_draw').execute();
}
