import type { Readable } from 'node:stream';

/**
 * Where media bytes live. Exactly one implementation is built from configuration: LocalMediaStore
 * (files under DATA_DIR/media, uploads through this server's signed URLs) or S3MediaStore (a
 * bucket; the browser sends bytes straight to S3 through presigned URLs).
 *
 * The store knows bytes and URLs only. Which uploads exist, their limits and their state live in
 * the database (MediaObjectRepository); MediaUploads ties the two together.
 */

/** A finished object, as recorded once its bytes have been checked. */
export interface StoredObject {
  /** Sniffed from the content, never the type the client declared. */
  contentType: string;
  size: number;
  /** Strong validator for HTTP caching (without quotes). */
  etag: string;
}

export interface UploadTarget {
  objectId: string;
  maxBytes: number;
  expiresAtSeconds: number;
  /** Scheme and host the browser uses to reach this server (for URLs the local store signs). */
  origin: string;
}

export interface PartTarget extends UploadTarget {
  uploadId: string;
  partNumber: number;
}

/** One uploaded part, in the shape Uppy's companion client reads. */
export interface UploadedPart {
  PartNumber: number;
  ETag: string;
  Size: number;
}

export interface ByteRange {
  /** Inclusive offsets. */
  start: number;
  end: number;
}

export interface MediaStore {
  readonly kind: 'local' | 's3';

  /** A URL the browser PUTs the whole file to. */
  signPut(target: UploadTarget): Promise<string>;
  /** A form POST target (S3 POST policy shape) for Uppy's `s3/params`. */
  signPost(target: UploadTarget): Promise<{ url: string; fields: Record<string, string> }>;
  /**
   * Checks a single-request upload that went to the store directly (S3) and moves it into place.
   * Undefined when nothing has arrived yet. The local store checks bytes as they arrive instead,
   * so it never has anything to adopt.
   */
  adoptDirectUpload(objectId: string, maxBytes: number): Promise<StoredObject | undefined>;

  /** Starts a multipart upload; returns the store's upload id. */
  createMultipart(objectId: string, declaredType: string): Promise<string>;
  signPart(target: PartTarget): Promise<string>;
  listParts(objectId: string, uploadId: string): Promise<UploadedPart[]>;
  /** Joins the parts, then checks size and content; a refused object is removed. */
  completeMultipart(
    objectId: string,
    uploadId: string,
    parts: { PartNumber: number; ETag: string }[],
    maxBytes: number,
  ): Promise<StoredObject>;
  abortMultipart(objectId: string, uploadId: string): Promise<void>;

  /** The bytes of a finished object (a range of them when asked). */
  open(objectId: string, range?: ByteRange): Promise<Readable>;
  /** Removes an object and anything half-uploaded under its id; missing objects are fine. */
  delete(objectId: string): Promise<void>;
  /** Rejects when the store cannot take uploads (the readiness probe, /readyz). */
  checkReady(): Promise<void>;
}

/** Object ids are UUIDs; checking the shape keeps them safe as file names and object keys. */
export const OBJECT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isObjectId(value: string): boolean {
  return OBJECT_ID_PATTERN.test(value);
}
