import type { Kysely } from 'kysely';

/**
 * Players belong to one session (DESIGN §15). `email_key` keeps its unique index but now holds
 * "{sessionId} {lower-cased email}": one player per email per session, and an email can play
 * other games without anyone getting another device's player back. (Changing the unique column
 * itself would mean rebuilding `players` on SQLite, whose drop would cascade into every answer.)
 * Players registered before this release keep a null session and their old key.
 *
 * - players.session_id / join_order: the session and the order of joining it (1, 2, ...): a
 *   hidden player shows as "Player {join_order}";
 * - players.hidden / kicked: live moderation; a kicked player's device cannot rejoin;
 * - player_tokens.session_id: a token authorises that session only; older tokens (null) none;
 * - sessions.ended_at: when the session was last finished (tokens expire 24 h later);
 * - sessions.max_players / nicknames: the registration settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('max_players', 'integer', (c) => c.notNull().defaultTo(2000)).execute();
  await db.schema.alterTable('sessions').addColumn('nicknames', 'text', (c) => c.notNull().defaultTo('free')).execute();
  await db.schema.alterTable('sessions').addColumn('ended_at', 'text').execute();
  await db.schema.alterTable('players').addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('cascade')).execute();
  await db.schema.alterTable('players').addColumn('join_order', 'integer').execute();
  await db.schema.alterTable('players').addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('players').addColumn('kicked', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('players_session_order_idx').on('players').columns(['session_id', 'join_order']).unique().execute();
  await db.schema.alterTable('player_tokens').addColumn('session_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('player_tokens').dropColumn('session_id').execute();
  await db.schema.dropIndex('players_session_order_idx').execute();
  for (const column of ['kicked', 'hidden', 'join_order', 'session_id']) await db.schema.alterTable('players').dropColumn(column).execute();
  for (const column of ['ended_at', 'nicknames', 'max_players']) await db.schema.alterTable('sessions').dropColumn(column).execute();
}
