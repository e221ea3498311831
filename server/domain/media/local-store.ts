import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, isDomainError } from '../../errors.js';
import { uploadErrors } from './errors.js';
import { UploadInspector } from './inspect-stream.js';
import { MAX_PARTS, MIN_PART_BYTES } from './limits.js';
import { UploadSigner } from './signatures.js';
import {
  isObjectId, type ByteRange, type MediaStore, type PartTarget, type StoredObject, type UploadTarget, type UploadedPart,
} from './store.js';

/**
 * Media as files under DATA_DIR/media. Uploads come to this server (`/api/uploads/...`, signed
 * with the server secret) and are checked while they stream: they are written to a temporary file
 * and renamed into place only once complete, so a refused or interrupted upload leaves nothing.
 *
 *   media/{objectId}                      finished objects
 *   media/.incoming/{objectId}.{random}   single uploads in flight
 *   media/.multipart/{objectId}/          parts of a multipart upload, named {partNumber}.{md5}
 */
export class LocalMediaStore implements MediaStore {
  readonly kind = 'local';
  readonly signer: UploadSigner;
  private readonly incomingDir: string;
  private readonly multipartDir: string;

  constructor(
    private readonly root: string,
    secret: string,
  ) {
    this.signer = new UploadSigner(secret);
    this.incomingDir = path.join(root, '.incoming');
    this.multipartDir = path.join(root, '.multipart');
    // Temporary files left by a crash are never completed: start clean.
    fs.rmSync(this.incomingDir, { recursive: true, force: true });
    fs.mkdirSync(this.incomingDir, { recursive: true });
    fs.mkdirSync(this.multipartDir, { recursive: true });
  }

  async checkReady(): Promise<void> {
    // Uploads are written here first: a full disk or a read-only mount shows up as not writable.
    await fs.promises.access(this.incomingDir, fs.constants.W_OK);
  }

  private objectPath(objectId: string): string {
    if (!isObjectId(objectId)) throw DomainError.notFound('Media file not found');
    return path.join(this.root, objectId);
  }

  private partsDir(objectId: string): string {
    if (!isObjectId(objectId)) throw uploadErrors.unknownUpload();
    return path.join(this.multipartDir, objectId);
  }

  async signPut(t: UploadTarget): Promise<string> {
    const signature = this.signer.sign('put', [t.objectId], t.expiresAtSeconds);
    return `${t.origin}/api/uploads/${t.objectId}?expires=${t.expiresAtSeconds}&signature=${signature}`;
  }

  async signPost(t: UploadTarget): Promise<{ url: string; fields: Record<string, string> }> {
    const signature = this.signer.sign('post', [t.objectId], t.expiresAtSeconds);
    return { url: `${t.origin}/api/uploads`, fields: { key: t.objectId, expires: String(t.expiresAtSeconds), signature } };
  }

  async signPart(t: PartTarget): Promise<string> {
    const signature = this.signer.sign('part', [t.objectId, t.uploadId, t.partNumber], t.expiresAtSeconds);
    const query = new URLSearchParams({ uploadId: t.uploadId, expires: String(t.expiresAtSeconds), signature });
    return `${t.origin}/api/uploads/${t.objectId}/parts/${t.partNumber}?${query}`;
  }

  async adoptDirectUpload(): Promise<StoredObject | undefined> {
    return undefined;
  }

  /** Streams a whole-file upload into place, checking limit and content on the way. */
  async receive(objectId: string, body: AsyncIterable<Buffer>, maxBytes: number): Promise<StoredObject> {
    const target = this.objectPath(objectId);
    const temp = path.join(this.incomingDir, `${objectId}.${randomBytes(6).toString('hex')}`);
    const inspector = new UploadInspector({ maxBytes, sniff: true });
    try {
      await pipeline(Readable.from(body), inspector, fs.createWriteStream(temp, { flags: 'wx' }));
      await fs.promises.rename(temp, target);
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
    const { size, md5Hex, contentType } = inspector.result();
    return { size, etag: md5Hex, contentType: contentType! };
  }

  async createMultipart(objectId: string): Promise<string> {
    await fs.promises.mkdir(this.partsDir(objectId), { recursive: true });
    return randomBytes(16).toString('hex');
  }

  async listParts(objectId: string): Promise<UploadedPart[]> {
    const dir = this.partsDir(objectId);
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    const parts: UploadedPart[] = [];
    for (const name of names) {
      const match = /^(\d+)\.([0-9a-f]{32})$/.exec(name);
      if (!match) continue;
      const stat = await fs.promises.stat(path.join(dir, name)).catch(() => undefined);
      if (stat) parts.push({ PartNumber: Number(match[1]), ETag: match[2], Size: stat.size });
    }
    return parts.sort((a, b) => a.PartNumber - b.PartNumber);
  }

  /**
   * Stores one part. The whole upload's limit counts the parts already here, so parts can never
   * add up to more than the limit on disk. Part 1 carries the file's first bytes and is sniffed.
   */
  async receivePart(objectId: string, partNumber: number, body: AsyncIterable<Buffer>, maxBytes: number): Promise<string> {
    const dir = this.partsDir(objectId);
    if (!fs.existsSync(dir)) throw uploadErrors.unknownUpload();
    const others = (await this.listParts(objectId)).filter((p) => p.PartNumber !== partNumber);
    const room = maxBytes - others.reduce((sum, p) => sum + p.Size, 0);
    if (room <= 0) throw uploadErrors.tooLarge(maxBytes);
    const temp = path.join(dir, `.tmp-${partNumber}-${randomBytes(6).toString('hex')}`);
    const inspector = new UploadInspector({ maxBytes: room, sniff: partNumber === 1 });
    try {
      await pipeline(Readable.from(body), inspector, fs.createWriteStream(temp, { flags: 'wx' }));
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      if (isDomainError(err, 'too_large')) throw uploadErrors.tooLarge(maxBytes);
      throw err;
    }
    const etag = inspector.result().md5Hex;
    // A part sent again replaces the earlier one, as on S3.
    for (const name of await fs.promises.readdir(dir)) {
      if (name.startsWith(`${partNumber}.`)) await fs.promises.rm(path.join(dir, name), { force: true });
    }
    await fs.promises.rename(temp, path.join(dir, `${partNumber}.${etag}`));
    return etag;
  }

  async completeMultipart(
    objectId: string,
    _uploadId: string,
    parts: { PartNumber: number; ETag: string }[],
    maxBytes: number,
  ): Promise<StoredObject> {
    const dir = this.partsDir(objectId);
    const stored = new Map((await this.listParts(objectId)).map((p) => [p.PartNumber, p]));
    const chosen = parts.map((part, i) => {
      const found = stored.get(part.PartNumber);
      if (!found || found.ETag !== part.ETag.replace(/"/g, '')) {
        throw DomainError.invalid(`Part ${part.PartNumber} was not uploaded, or its ETag does not match`);
      }
      if (i < parts.length - 1 && found.Size < MIN_PART_BYTES) {
        throw DomainError.invalid('Every part except the last must be at least 5 MB');
      }
      return found;
    });
    if (chosen.length === 0 || chosen.length > MAX_PARTS) throw DomainError.invalid(`An upload has 1 to ${MAX_PARTS} parts`);
    if (chosen.reduce((sum, p) => sum + p.Size, 0) > maxBytes) {
      await this.abortMultipart(objectId);
      throw uploadErrors.tooLarge(maxBytes);
    }
    const inspector = new UploadInspector({ maxBytes, sniff: true });
    const temp = path.join(this.incomingDir, `${objectId}.${randomBytes(6).toString('hex')}`);
    async function* joined() {
      for (const part of chosen) yield* fs.createReadStream(path.join(dir, `${part.PartNumber}.${part.ETag}`));
    }
    try {
      await pipeline(Readable.from(joined()), inspector, fs.createWriteStream(temp, { flags: 'wx' }));
      await fs.promises.rename(temp, this.objectPath(objectId));
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      // A joined file that is refused will never become valid: drop the parts too.
      if (isDomainError(err)) await this.abortMultipart(objectId);
      throw err;
    }
    await fs.promises.rm(dir, { recursive: true, force: true });
    const { size, md5Hex, contentType } = inspector.result();
    return { size, etag: `${md5Hex}-${chosen.length}`, contentType: contentType! };
  }

  async abortMultipart(objectId: string): Promise<void> {
    await fs.promises.rm(this.partsDir(objectId), { recursive: true, force: true });
  }

  async open(objectId: string, range?: ByteRange): Promise<Readable> {
    const stream = fs.createReadStream(this.objectPath(objectId), range ? { start: range.start, end: range.end } : {});
    try {
      await once(stream, 'open');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw DomainError.notFound('Media file not found');
      throw err;
    }
    return stream;
  }

  async delete(objectId: string): Promise<void> {
    if (!isObjectId(objectId)) return;
    await fs.promises.rm(this.objectPath(objectId), { force: true });
    await fs.promises.rm(this.partsDir(objectId), { recursive: true, force: true });
  }
}
