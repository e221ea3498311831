import { DomainError, isDomainError } from '../../errors.js';
import type { MediaObject, MediaRepository } from '../../storage/media.js';
import { uploadErrors } from './errors.js';
import { LocalMediaStore } from './local-store.js';
import { MAX_PARTS, UPLOAD_URL_TTL_SECONDS, maxBytesFor, type UploadKind } from './limits.js';
import { isObjectId, type MediaStore, type StoredObject, type UploadedPart } from './store.js';

const SWEEP_INTERVAL_MS = 60_000;

/** Refusals of the content itself: the upload can never succeed, so its URL dies with it. */
const isRefusal = (err: unknown) => isDomainError(err, 'too_large', 'unsupported', 'invalid');

/**
 * The upload flow over a MediaStore and the media_objects rows: issuing single-use URLs, taking
 * bytes in (local store), the multipart companion calls, adopting direct S3 uploads on first use,
 * and removing objects nothing refers to. Routes stay thin; the rules live here.
 */
export class MediaUploads {
  private readonly adopting = new Map<string, Promise<MediaObject | undefined>>();
  private lastSweepMs = 0;

  constructor(
    private readonly repo: MediaRepository,
    readonly store: MediaStore,
    private readonly onSweepError: (err: unknown) => void = () => {},
  ) {}

  private get objects() {
    return this.repo.objects;
  }

  private expiry() {
    const expiresAtSeconds = Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS;
    return { expiresAtSeconds, expiresAt: new Date(expiresAtSeconds * 1000).toISOString() };
  }

  private local(): LocalMediaStore {
    if (!(this.store instanceof LocalMediaStore)) throw DomainError.notFound('Uploads go straight to the S3 bucket');
    return this.store;
  }

  /** `POST /api/media/upload`: one URL the browser PUTs the file to. */
  async issuePut(kind: UploadKind, origin: string): Promise<{ uploadURL: string; objectId: string }> {
    await this.sweep();
    const { expiresAtSeconds, expiresAt } = this.expiry();
    const object = await this.objects.createPending({ kind, method: 'single', declaredType: null, expiresAt });
    const uploadURL = await this.store.signPut({ objectId: object.id, maxBytes: maxBytesFor(kind), expiresAtSeconds, origin });
    return { uploadURL, objectId: object.id };
  }

  /** `GET /api/media/s3/params`: a form POST target, as Uppy's companion client expects. */
  async issuePost(kind: UploadKind, declaredType: string | null, origin: string) {
    await this.sweep();
    const { expiresAtSeconds, expiresAt } = this.expiry();
    const object = await this.objects.createPending({ kind, method: 'single', declaredType, expiresAt });
    const target = await this.store.signPost({ objectId: object.id, maxBytes: maxBytesFor(kind), expiresAtSeconds, origin });
    return { method: 'POST' as const, ...target, headers: {} };
  }

  /** A whole file arriving at this server (local store): the first complete upload wins the URL. */
  async receive(objectId: string, body: AsyncIterable<Buffer>): Promise<MediaObject> {
    const store = this.local();
    const object = await this.objects.get(objectId);
    if (!object || object.method !== 'single') throw uploadErrors.gone();
    if (object.status === 'ready') throw uploadErrors.used();
    if (!(await this.objects.claim(objectId))) throw uploadErrors.busy();
    let stored: StoredObject;
    try {
      stored = await store.receive(objectId, body, maxBytesFor(object.kind));
    } catch (err) {
      await (isRefusal(err) ? this.objects.delete(objectId) : this.objects.release(objectId));
      throw err;
    }
    await this.objects.markReady(objectId, stored);
    return { ...object, status: 'ready', contentType: stored.contentType, size: stored.size, etag: stored.etag };
  }

  async startMultipart(kind: UploadKind, declaredType: string | null): Promise<{ key: string; uploadId: string }> {
    await this.sweep();
    const object = await this.objects.createPending({ kind, method: 'multipart', declaredType, expiresAt: this.expiry().expiresAt });
    const uploadId = await this.store.createMultipart(object.id, declaredType ?? 'application/octet-stream');
    await this.objects.setUploadId(object.id, uploadId);
    return { key: object.id, uploadId };
  }

  private async requireMultipart(key: string, uploadId: string): Promise<MediaObject> {
    const object = isObjectId(key) ? await this.objects.get(key) : undefined;
    if (!object || object.method !== 'multipart' || object.uploadId !== uploadId || object.status === 'ready') {
      throw uploadErrors.unknownUpload();
    }
    if (Date.parse(object.expiresAt) < Date.now()) throw uploadErrors.expired();
    return object;
  }

  async signPart(key: string, uploadId: string, partNumber: number, origin: string): Promise<{ url: string; expires: number }> {
    if (partNumber < 1 || partNumber > MAX_PARTS) throw DomainError.invalid(`Part numbers run from 1 to ${MAX_PARTS}`);
    const object = await this.requireMultipart(key, uploadId);
    const expiresAtSeconds = Math.floor(Date.parse(object.expiresAt) / 1000);
    const url = await this.store.signPart({
      objectId: key, uploadId, partNumber, maxBytes: maxBytesFor(object.kind), expiresAtSeconds, origin,
    });
    return { url, expires: expiresAtSeconds - Math.floor(Date.now() / 1000) };
  }

  async listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    await this.requireMultipart(key, uploadId);
    return this.store.listParts(key, uploadId);
  }

  /** One part arriving at this server (local store). */
  async receivePart(key: string, uploadId: string, partNumber: number, body: AsyncIterable<Buffer>): Promise<string> {
    const store = this.local();
    const object = await this.requireMultipart(key, uploadId);
    if (object.status !== 'pending') throw uploadErrors.busy();
    try {
      return await store.receivePart(key, partNumber, body, maxBytesFor(object.kind));
    } catch (err) {
      // The first part shows what the file is: when it is not media, no later part can help.
      if (isDomainError(err, 'unsupported')) await this.discard(object, key);
      throw err;
    }
  }

  async completeMultipart(
    key: string,
    uploadId: string,
    parts: { PartNumber: number; ETag: string }[],
    origin: string,
  ): Promise<{ location: string; key: string }> {
    const object = await this.requireMultipart(key, uploadId);
    const numbers = parts.map((p) => p.PartNumber);
    if (numbers.some((n, i) => i > 0 && n <= numbers[i - 1])) throw DomainError.invalid('Parts must be listed in ascending order');
    if (!(await this.objects.claim(key))) throw uploadErrors.busy();
    let stored: StoredObject;
    try {
      stored = await this.store.completeMultipart(key, uploadId, parts, maxBytesFor(object.kind));
    } catch (err) {
      // A joined file that is too large or not media is gone; a wrong part list can be corrected.
      const refused = isDomainError(err, 'too_large', 'unsupported');
      await (refused ? this.objects.delete(key) : this.objects.release(key));
      throw err;
    }
    await this.objects.markReady(key, stored);
    return { location: `${origin}/media/${key}`, key };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    await this.requireMultipart(key, uploadId);
    await this.store.abortMultipart(key, uploadId);
    await this.store.delete(key);
    await this.objects.delete(key);
  }

  /**
   * A servable object, or undefined when there is none (yet). A direct S3 upload is checked and
   * moved into place the first time anything asks for it; a refused one answers 413/415 once and
   * is gone afterwards.
   */
  async ready(objectId: string): Promise<MediaObject | undefined> {
    if (!isObjectId(objectId)) return undefined;
    const object = await this.objects.get(objectId);
    if (!object || object.status === 'ready') return object;
    if (object.method !== 'single' || object.status !== 'pending' || this.store.kind !== 's3') return undefined;
    let pending = this.adopting.get(objectId);
    if (!pending) {
      pending = this.adopt(object).finally(() => this.adopting.delete(objectId));
      this.adopting.set(objectId, pending);
    }
    return pending;
  }

  private async adopt(object: MediaObject): Promise<MediaObject | undefined> {
    let stored: StoredObject | undefined;
    try {
      stored = await this.store.adoptDirectUpload(object.id, maxBytesFor(object.kind));
    } catch (err) {
      if (isRefusal(err)) await this.objects.delete(object.id);
      throw err;
    }
    if (!stored) return undefined;
    await this.objects.markReady(object.id, stored);
    return { ...object, status: 'ready', contentType: stored.contentType, size: stored.size, etag: stored.etag };
  }

  /** Removes an object's bytes and record unless a media row or a theme still points at it. */
  async removeIfUnreferenced(objectId: string): Promise<boolean> {
    if (!isObjectId(objectId) || (await this.repo.isObjectReferenced(objectId))) return false;
    await this.discard(await this.objects.get(objectId), objectId);
    return true;
  }

  private async discard(object: MediaObject | undefined, objectId: string): Promise<void> {
    if (object?.method === 'multipart' && object.status !== 'ready' && object.uploadId) {
      await this.store.abortMultipart(objectId, object.uploadId);
    }
    await this.store.delete(objectId);
    await this.objects.delete(objectId);
  }

  /**
   * Clears uploads whose URLs expired unfinished (at most once a minute, on the next upload). A
   * direct S3 upload that a theme already points at is adopted rather than removed. If the bucket
   * or the database fails while it is adopted, it stays for the next sweep: only an upload that
   * never arrived or was refused (not media, too large) goes.
   */
  async sweep(nowMs = Date.now()): Promise<void> {
    if (nowMs - this.lastSweepMs < SWEEP_INTERVAL_MS) return;
    this.lastSweepMs = nowMs;
    for (const object of await this.objects.listExpired(new Date(nowMs).toISOString())) {
      try {
        if (await this.repo.isObjectReferenced(object.id)) {
          // A failure that is not a refusal goes to `onSweepError` below, and the upload is kept.
          const adopted = await this.ready(object.id).catch((err: unknown) => {
            if (isRefusal(err)) return undefined;
            throw err;
          });
          if (adopted) continue;
        }
        await this.discard(object, object.id);
      } catch (err) {
        this.onSweepError(err);
      }
    }
  }
}
