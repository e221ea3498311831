import { type Kysely, sql } from 'kysely';

/**
 * Stored media objects: one row per upload URL issued, from "pending" (URL handed out) through
 * "receiving" (bytes streaming in, local store) to "ready" (checked and servable). The row decides
 * what an upload may be (its kind, hence its size limit) and makes upload URLs single-use.
 * Multipart uploads keep the store's upload id here too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media_objects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'receiving', 'ready')`))
    .addColumn('upload_kind', 'text', (c) => c.notNull().check(sql`upload_kind in ('media', 'theme', 'large')`))
    .addColumn('upload_method', 'text', (c) => c.notNull().check(sql`upload_method in ('single', 'multipart')`))
    .addColumn('upload_id', 'text')
    .addColumn('declared_type', 'text')
    .addColumn('content_type', 'text')
    .addColumn('size_bytes', 'bigint')
    .addColumn('etag', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('media_objects_expiry_idx').on('media_objects').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('media_created_idx').on('media').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('media_created_idx').ifExists().execute();
  await db.schema.dropTable('media_objects').ifExists().execute();
}
