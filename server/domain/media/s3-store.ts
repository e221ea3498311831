import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CopyObjectCommand, CreateMultipartUploadCommand,
  DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListPartsCommand, PutObjectCommand, S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../../config.js';
import { DomainError } from '../../errors.js';
import { uploadErrors } from './errors.js';
import { signPostPolicy } from './s3-post-policy.js';
import { SNIFF_BYTES, sniffMediaType } from './sniff.js';
import type { ByteRange, MediaStore, PartTarget, StoredObject, UploadTarget, UploadedPart } from './store.js';

type S3Settings = NonNullable<Config['s3']>;

const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const nameOf = (err: unknown) => (err as { name?: string }).name;

/**
 * Media in an S3 bucket. The browser uploads straight to S3 with presigned URLs, so bytes cannot
 * be checked on their way in. Instead:
 *
 * - a single-request upload lands at `incoming/{objectId}` and is checked (size, sniffed type)
 *   when it is first used; only then is it copied to `media/{objectId}`, and the incoming copy
 *   removed. A presigned URL used again later can only write to `incoming/`, which nothing reads.
 * - a multipart upload writes `media/{objectId}` directly; S3 invalidates the part URLs when this
 *   server completes the upload, and completion checks size and type before the object is used.
 *
 * Reads are proxied through this server (see docs/MEDIA.md), so the caching and safety headers
 * are the same as with local storage and the bucket can stay private.
 */
/** The bucket's URL: where browsers send uploads (the page's Content-Security-Policy allows its origin). */
export function bucketUrlOf(settings: Pick<S3Settings, 'bucket' | 'endpoint' | 'forcePathStyle' | 'region'>): string {
  const { bucket, endpoint, forcePathStyle, region } = settings;
  const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (forcePathStyle) return `${base.origin}${basePath}/${bucket}`;
  return `${base.protocol}//${bucket}.${base.host}${basePath}`;
}

export class S3MediaStore implements MediaStore {
  readonly kind = 's3';
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(private readonly settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: S3-compatible servers do not all know the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private finalKey = (objectId: string) => `media/${objectId}`;
  private incomingKey = (objectId: string) => `incoming/${objectId}`;
  private expiresIn = (t: UploadTarget) => Math.max(1, t.expiresAtSeconds - Math.floor(Date.now() / 1000));

  async checkReady(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async signPut(t: UploadTarget): Promise<string> {
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: this.incomingKey(t.objectId) });
    return getSignedUrl(this.client, command, { expiresIn: this.expiresIn(t) });
  }

  async signPost(t: UploadTarget): Promise<{ url: string; fields: Record<string, string> }> {
    const credentials = await this.client.config.credentials();
    const fields = signPostPolicy({
      bucket: this.bucket,
      key: this.incomingKey(t.objectId),
      region: await this.client.config.region(),
      credentials,
      maxBytes: t.maxBytes,
      expiresAt: new Date(t.expiresAtSeconds * 1000),
    });
    return { url: this.bucketUrl(), fields };
  }

  /** The bucket's own URL, where form POSTs go. */
  private bucketUrl(): string {
    return bucketUrlOf(this.settings);
  }

  async adoptDirectUpload(objectId: string, maxBytes: number): Promise<StoredObject | undefined> {
    const incoming = this.incomingKey(objectId);
    let size: number;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: incoming }));
      size = head.ContentLength ?? 0;
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw err;
    }
    const contentType = await this.check(incoming, size, maxBytes);
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: this.finalKey(objectId),
        CopySource: `${this.bucket}/${incoming}`,
        ContentType: contentType,
        MetadataDirective: 'REPLACE',
      }),
    );
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: incoming }));
    return { contentType, size, etag: await this.etagOf(this.finalKey(objectId)) };
  }

  /** Size and sniffed type of an object that arrived unchecked; a refused one is deleted. */
  private async check(key: string, size: number, maxBytes: number): Promise<string> {
    const refuse = async (error: DomainError) => {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
      throw error;
    };
    if (size === 0) return refuse(uploadErrors.empty());
    if (size > maxBytes) return refuse(uploadErrors.tooLarge(maxBytes));
    const head = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${SNIFF_BYTES - 1}` }),
    );
    const contentType = await sniffMediaType(await head.Body!.transformToByteArray());
    return contentType ?? refuse(uploadErrors.notMedia());
  }

  private async etagOf(key: string): Promise<string> {
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    return (head.ETag ?? '').replace(/"/g, '');
  }

  async createMultipart(objectId: string): Promise<string> {
    // The declared type is not trusted; what is served comes from sniffing at completion.
    const created = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.finalKey(objectId), ContentType: 'application/octet-stream' }),
    );
    if (!created.UploadId) throw new Error('S3 returned no UploadId');
    return created.UploadId;
  }

  async signPart(t: PartTarget): Promise<string> {
    const command = new UploadPartCommand({
      Bucket: this.bucket, Key: this.finalKey(t.objectId), UploadId: t.uploadId, PartNumber: t.partNumber,
    });
    return getSignedUrl(this.client, command, { expiresIn: this.expiresIn(t) });
  }

  async listParts(objectId: string, uploadId: string): Promise<UploadedPart[]> {
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const page = await this.client.send(
          new ListPartsCommand({ Bucket: this.bucket, Key: this.finalKey(objectId), UploadId: uploadId, PartNumberMarker: marker }),
        );
        for (const p of page.Parts ?? []) {
          parts.push({ PartNumber: p.PartNumber!, ETag: (p.ETag ?? '').replace(/"/g, ''), Size: p.Size ?? 0 });
        }
        if (!page.IsTruncated) return parts;
        marker = page.NextPartNumberMarker;
      }
    } catch (err) {
      if (nameOf(err) === 'NoSuchUpload') throw uploadErrors.unknownUpload();
      throw err;
    }
  }

  async completeMultipart(
    objectId: string,
    uploadId: string,
    parts: { PartNumber: number; ETag: string }[],
    maxBytes: number,
  ): Promise<StoredObject> {
    const key = this.finalKey(objectId);
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket, Key: key, UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.PartNumber, ETag: `"${p.ETag.replace(/"/g, '')}"` })) },
        }),
      );
    } catch (err) {
      const name = nameOf(err);
      if (name === 'NoSuchUpload') throw uploadErrors.unknownUpload();
      if (name === 'InvalidPart' || name === 'InvalidPartOrder' || name === 'EntityTooSmall' || statusOf(err) === 400) {
        throw DomainError.invalid(`The parts cannot be joined: ${(err as Error).message}`);
      }
      throw err;
    }
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    const size = head.ContentLength ?? 0;
    const contentType = await this.check(key, size, maxBytes);
    return { contentType, size, etag: (head.ETag ?? '').replace(/"/g, '') };
  }

  async abortMultipart(objectId: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.finalKey(objectId), UploadId: uploadId }));
    } catch (err) {
      if (nameOf(err) !== 'NoSuchUpload') throw err;
    }
  }

  async open(objectId: string, range?: ByteRange): Promise<Readable> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.finalKey(objectId),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return object.Body as Readable;
    } catch (err) {
      if (statusOf(err) === 404) throw DomainError.notFound('Media file not found');
      throw err;
    }
  }

  async delete(objectId: string): Promise<void> {
    for (const key of [this.finalKey(objectId), this.incomingKey(objectId)]) {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    }
  }
}
