import type { Media, SessionMediaLink } from '../../protocol/api.js';
import type { Kysely, Selectable } from 'kysely';
import type { Database, MediaTable } from './schema.js';
import { isConstraintError, msAfter, newId, nextCreatedAtMs, nowIso } from './util.js';

/**
 * The media library (media rows and their session assignments) and the stored objects behind
 * them. A media row points at objects by path (`/media/{objectId}`), as the web client stores it;
 * objects are shared, and removed only when nothing points at them any more.
 */

export type { Media };
export type MediaInput = Omit<Media, 'id' | 'createdAt'>;

export interface MediaObjectTable {
  id: string;
  status: 'pending' | 'receiving' | 'ready';
  upload_kind: 'media' | 'theme' | 'large';
  upload_method: 'single' | 'multipart';
  upload_id: string | null;
  declared_type: string | null;
  content_type: string | null;
  /** bigint: PostgreSQL hands it back as a string. */
  size_bytes: number | string | null;
  etag: string | null;
  created_at: string;
  expires_at: string;
  completed_at: string | null;
}

export interface MediaObject {
  id: string;
  status: MediaObjectTable['status'];
  kind: MediaObjectTable['upload_kind'];
  method: MediaObjectTable['upload_method'];
  uploadId: string | null;
  declaredType: string | null;
  contentType: string | null;
  size: number | null;
  etag: string | null;
  expiresAt: string;
}

type MediaDatabase = Database & { media_objects: MediaObjectTable };

export const mediaPath = (objectId: string) => `/media/${objectId}`;

const toMedia = (row: Selectable<MediaTable>): Media => ({
  id: row.id,
  filePath: row.file_path,
  phoneFilePath: row.phone_file_path,
  fileType: row.file_type,
  duration: row.duration,
  promotionalLink: row.promotional_link,
  createdAt: row.created_at,
});

const toObject = (row: Selectable<MediaObjectTable>): MediaObject => ({
  id: row.id,
  status: row.status,
  kind: row.upload_kind,
  method: row.upload_method,
  uploadId: row.upload_id,
  declaredType: row.declared_type,
  contentType: row.content_type,
  size: row.size_bytes == null ? null : Number(row.size_bytes),
  etag: row.etag,
  expiresAt: row.expires_at,
});

export class MediaRepository {
  private readonly db: Kysely<MediaDatabase>;
  readonly objects: MediaObjectRepository;

  constructor(private readonly base: Kysely<Database>) {
    this.db = base as unknown as Kysely<MediaDatabase>;
    this.objects = new MediaObjectRepository(this.db);
  }

  /** Newest first. */
  async list(): Promise<Media[]> {
    const rows = await this.db.selectFrom('media').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(toMedia);
  }

  async get(id: string): Promise<Media | undefined> {
    const row = await this.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toMedia(row);
  }

  async getMany(ids: string[]): Promise<Media[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('media').selectAll().where('id', 'in', ids).execute();
    return rows.map(toMedia);
  }

  async create(input: MediaInput): Promise<Media> {
    const row = {
      id: newId(),
      file_path: input.filePath,
      phone_file_path: input.phoneFilePath,
      file_type: input.fileType,
      duration: input.duration,
      promotional_link: input.promotionalLink,
      created_at: new Date(await nextCreatedAtMs(this.base, 'media')).toISOString(),
    };
    await this.db.insertInto('media').values(row).execute();
    return toMedia(row);
  }

  async setDuration(id: string, duration: number): Promise<Media | undefined> {
    await this.db.updateTable('media').set({ duration }).where('id', '=', id).execute();
    return this.get(id);
  }

  /** Deletes a media row; its assignments go with it and questions lose it (foreign keys). */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('media').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Sessions that show a media item: by assignment, or through a question that carries it. */
  async sessionsUsing(mediaId: string): Promise<string[]> {
    const assigned = await this.db.selectFrom('session_media').select('session_id').where('media_id', '=', mediaId).execute();
    const viaQuestions = await this.db
      .selectFrom('session_items as i')
      .innerJoin('questions as q', 'q.id', 'i.question_id')
      .select('i.session_id')
      .where('q.media_id', '=', mediaId)
      .execute();
    return [...new Set([...assigned, ...viaQuestions].map((r) => r.session_id))];
  }

  /** Whether any media row or session theme still points at an object. */
  async isObjectReferenced(objectId: string): Promise<boolean> {
    const path = mediaPath(objectId);
    const media = await this.db
      .selectFrom('media')
      .select('id')
      .where((eb) => eb.or([eb('file_path', '=', path), eb('phone_file_path', '=', path)]))
      .executeTakeFirst();
    if (media) return true;
    // Theme images are stored as paths (or full URLs ending in the path) inside the theme JSON.
    const themed = await this.db.selectFrom('sessions').select('id').where('theme', 'like', `%${path}%`).executeTakeFirst();
    return themed !== undefined;
  }

  /** Assignment order: when assigned, then (for copies made at once) by media age and id. */
  async assignments(sessionId: string): Promise<SessionMediaLink[]> {
    const rows = await this.assignedQuery(sessionId).select(['sm.media_id', 'sm.session_id']).execute();
    return rows.map((r) => ({ mediaId: r.media_id, sessionId: r.session_id }));
  }

  /** The media a live session rotates through, in assignment order. */
  async listForSession(sessionId: string): Promise<Media[]> {
    const rows = await this.assignedQuery(sessionId).selectAll('m').execute();
    return rows.map(toMedia);
  }

  private assignedQuery(sessionId: string) {
    return this.db
      .selectFrom('session_media as sm')
      .innerJoin('media as m', 'm.id', 'sm.media_id')
      .where('sm.session_id', '=', sessionId)
      .orderBy('sm.created_at')
      .orderBy('m.created_at')
      .orderBy('m.id');
  }

  /** False when the media is already assigned to the session. */
  async assign(sessionId: string, mediaId: string): Promise<boolean> {
    // Strictly after the session's latest assignment: two made within one millisecond were
    // otherwise ordered by the media's age, not by when they were assigned.
    const latest = await this.db
      .selectFrom('session_media')
      .select((eb) => eb.fn.max('created_at').as('latest'))
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    const createdAt = new Date(msAfter(latest?.latest)).toISOString();
    try {
      await this.db.insertInto('session_media').values({ session_id: sessionId, media_id: mediaId, created_at: createdAt }).execute();
      return true;
    } catch (err) {
      if (isConstraintError(err)) return false;
      throw err;
    }
  }

  async unassign(sessionId: string, mediaId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('session_media')
      .where('session_id', '=', sessionId)
      .where('media_id', '=', mediaId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

export class MediaObjectRepository {
  constructor(private readonly db: Kysely<MediaDatabase>) {}

  async createPending(input: {
    kind: MediaObject['kind'];
    method: MediaObject['method'];
    declaredType: string | null;
    expiresAt: string;
  }): Promise<MediaObject> {
    const row: Selectable<MediaObjectTable> = {
      id: newId(),
      status: 'pending',
      upload_kind: input.kind,
      upload_method: input.method,
      upload_id: null,
      declared_type: input.declaredType?.slice(0, 200) ?? null,
      content_type: null,
      size_bytes: null,
      etag: null,
      created_at: nowIso(),
      expires_at: input.expiresAt,
      completed_at: null,
    };
    await this.db.insertInto('media_objects').values(row).execute();
    return toObject(row);
  }

  async setUploadId(id: string, uploadId: string): Promise<void> {
    await this.db.updateTable('media_objects').set({ upload_id: uploadId }).where('id', '=', id).execute();
  }

  async get(id: string): Promise<MediaObject | undefined> {
    const row = await this.db.selectFrom('media_objects').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toObject(row);
  }

  /** Takes a pending object for one upload request: true only for the request that wins. */
  async claim(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('media_objects')
      .set({ status: 'receiving' })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** An interrupted upload gives its URL back, so the client may try again. */
  async release(id: string): Promise<void> {
    await this.db.updateTable('media_objects').set({ status: 'pending' }).where('id', '=', id).where('status', '=', 'receiving').execute();
  }

  async markReady(id: string, stored: { contentType: string; size: number; etag: string }): Promise<void> {
    await this.db
      .updateTable('media_objects')
      .set({ status: 'ready', content_type: stored.contentType, size_bytes: stored.size, etag: stored.etag, completed_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('media_objects').where('id', '=', id).execute();
  }

  /** Uploads never finished before their URLs expired. */
  async listExpired(now = nowIso()): Promise<MediaObject[]> {
    const rows = await this.db
      .selectFrom('media_objects')
      .selectAll()
      .where('status', '!=', 'ready')
      .where('expires_at', '<', now)
      .limit(100)
      .execute();
    return rows.map(toObject);
  }
}
