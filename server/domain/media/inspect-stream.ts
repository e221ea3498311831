import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { uploadErrors } from './errors.js';
import { SNIFF_BYTES, sniffMediaType } from './sniff.js';

export interface InspectedBytes {
  size: number;
  md5Hex: string;
  /** The sniffed type; undefined when sniffing was not asked for. */
  contentType: string | undefined;
}

/**
 * A pass-through that watches an upload on its way to storage: it counts bytes and fails as soon
 * as the limit is passed (so an oversize file never fills the disk), hashes them for the ETag, and
 * sniffs the first bytes, failing before anything more is written when they are not an image or
 * a video.
 */
export class UploadInspector extends Transform {
  private size = 0;
  private readonly md5: Hash = createHash('md5');
  private head: Buffer[] = [];
  private headBytes = 0;
  private sniffed = false;
  private contentType: string | undefined;
  private digest: string | undefined;

  constructor(private readonly options: { maxBytes: number; sniff: boolean }) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.options.maxBytes) return callback(uploadErrors.tooLarge(this.options.maxBytes));
    this.md5.update(chunk);
    if (!this.options.sniff || this.sniffed) return callback(null, chunk);
    // Hold bytes back until the head is complete: nothing reaches storage before the type is known.
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return callback();
    this.sniffHead().then(
      (held) => callback(null, held),
      (err: Error) => callback(err),
    );
  }

  override _flush(callback: TransformCallback): void {
    if (this.size === 0) return callback(uploadErrors.empty());
    if (!this.options.sniff || this.sniffed) return callback();
    this.sniffHead().then(
      (held) => callback(null, held),
      (err: Error) => callback(err),
    );
  }

  private async sniffHead(): Promise<Buffer> {
    const held = Buffer.concat(this.head);
    this.head = [];
    this.sniffed = true;
    this.contentType = await sniffMediaType(held);
    if (!this.contentType) throw uploadErrors.notMedia();
    return held;
  }

  /** Valid once the stream has finished. */
  result(): InspectedBytes {
    this.digest ??= this.md5.digest('hex');
    return { size: this.size, md5Hex: this.digest, contentType: this.contentType };
  }
}
