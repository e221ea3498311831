import { type Kysely, sql } from 'kysely';

/**
 * The whole schema. Constraints keep the invariants, not only code: cascades remove a player's
 * answers and scores, a question's session items, a session's items, links, answers and scores;
 * one answer per player per asking; one order position per item within a session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('admins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('admin_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('admin_id', 'text', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auditoriums')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_path', 'text', (c) => c.notNull())
    .addColumn('phone_file_path', 'text')
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('duration', 'integer', (c) => c.notNull().check(sql`duration between 1 and 60`))
    .addColumn('promotional_link', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('draft', 'scheduled', 'live', 'finished')`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('auditorium_id', 'text', (c) => c.references('auditoriums.id').onDelete('set null'))
    .addColumn('starts_at', 'text')
    .addColumn('auto_rotate', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('media_items_per_transition', 'integer', (c) =>
      c.notNull().defaultTo(1).check(sql`media_items_per_transition between 1 and 10`),
    )
    .addColumn('return_message', 'text')
    .addColumn('current_question_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('theme', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('live_state', 'text')
    .execute();
  await db.schema.createIndex('sessions_status_idx').on('sessions').column('status').execute();

  await db.schema
    .createTable('questions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('choices', 'text', (c) => c.notNull())
    .addColumn('correct_index', 'integer', (c) => c.notNull().check(sql`correct_index between 0 and 3`))
    .addColumn('points', 'integer', (c) => c.notNull().check(sql`points >= 1`))
    .addColumn('time_limit_seconds', 'integer', (c) => c.notNull().check(sql`time_limit_seconds >= 5`))
    .addColumn('categories', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('media_id', 'text', (c) => c.references('media.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('session_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('order_index', 'integer', (c) => c.notNull())
    .addColumn('item_type', 'text', (c) => c.notNull().check(sql`item_type in ('question', 'slide', 'media_block')`))
    .addColumn('question_id', 'text', (c) => c.references('questions.id').onDelete('cascade'))
    .addColumn('slide_type', 'text')
    .addColumn('slide_data', 'text')
    .addColumn('media_item_count', 'integer')
    .addUniqueConstraint('session_items_order_unique', ['session_id', 'order_index'])
    // A question stands at most once in a session (NULLs of slides and blocks do not collide).
    .addUniqueConstraint('session_items_question_unique', ['session_id', 'question_id'])
    .addCheckConstraint(
      'session_items_kind_check',
      sql`(item_type = 'question' and question_id is not null)
        or (item_type = 'slide' and slide_type in ('intro', 'rules', 'break', 'leaderboard', 'join'))
        or (item_type = 'media_block' and media_item_count between 1 and 20)`,
    )
    .execute();
  await db.schema.createIndex('session_items_question_idx').on('session_items').column('question_id').execute();

  await db.schema
    .createTable('session_media')
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('media_id', 'text', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_media_pk', ['session_id', 'media_id'])
    .execute();
  await db.schema.createIndex('session_media_media_idx').on('session_media').column('media_id').execute();

  await db.schema
    .createTable('players')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('player_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('player_tokens_player_idx').on('player_tokens').column('player_id').execute();

  await db.schema
    .createTable('answers')
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('asking', 'integer', (c) => c.notNull())
    .addColumn('selected_index', 'integer', (c) => c.notNull().check(sql`selected_index between 0 and 3`))
    .addColumn('is_correct', 'integer', (c) => c.notNull())
    .addColumn('points_earned', 'integer', (c) => c.notNull())
    .addColumn('elapsed_ms', 'integer', (c) => c.notNull())
    .addColumn('answered_at', 'text', (c) => c.notNull())
    // One answer per player per asking.
    .addPrimaryKeyConstraint('answers_pk', ['session_id', 'asking', 'player_id'])
    .execute();
  await db.schema.createIndex('answers_player_idx').on('answers').column('player_id').execute();
  await db.schema.createIndex('answers_question_idx').on('answers').column('question_id').execute();

  await db.schema
    .createTable('scores')
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('player_id', 'text', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('points_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reached_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('scores_pk', ['session_id', 'player_id'])
    .execute();
  await db.schema.createIndex('scores_player_idx').on('scores').column('player_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'scores', 'answers', 'player_tokens', 'players', 'session_media', 'session_items', 'questions',
    'sessions', 'media', 'auditoriums', 'settings', 'admin_tokens', 'admins',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
