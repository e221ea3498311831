import { DomainError } from '../../errors.js';

/**
 * A streaming reader for the multipart/form-data POST that Uppy sends to an upload URL obtained
 * from `s3/params` (an S3 "POST policy" upload): small text fields first, then one `file` part.
 * Fields are collected; the file part is handed on as a stream of chunks, never buffered whole.
 * Anything after the file part is ignored, as S3 does.
 */

export interface FormUpload {
  fields: Record<string, string>;
  file: AsyncIterable<Buffer>;
}

const MAX_FIELD_BYTES = 16 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_FIELDS = 50;
const CRLF = Buffer.from('\r\n');

export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

const malformed = (why: string) => DomainError.invalid(`Malformed form upload: ${why}`);

class ByteSource {
  buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  constructor(private readonly iterator: AsyncIterator<Buffer>) {}

  async pull(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.iterator.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, next.value]) : next.value;
    return true;
  }

  /** Reads until `marker`, returning what came before it and consuming the marker. */
  async readUntil(marker: Buffer, maxBytes: number, what: string): Promise<Buffer> {
    for (;;) {
      const at = this.buffer.indexOf(marker);
      if (at >= 0) {
        const before = this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at + marker.length);
        return before;
      }
      if (this.buffer.length > maxBytes + marker.length) throw malformed(`${what} too long`);
      if (!(await this.pull())) throw malformed(`the body ended inside ${what}`);
    }
  }

  async take(bytes: number): Promise<Buffer> {
    while (this.buffer.length < bytes) if (!(await this.pull())) throw malformed('the body ended early');
    const taken = this.buffer.subarray(0, bytes);
    this.buffer = this.buffer.subarray(bytes);
    return taken;
  }
}

function partName(headers: string): string | undefined {
  const disposition = headers.split('\r\n').find((line) => /^content-disposition\s*:/i.test(line));
  const match = disposition && /;\s*name="([^"]*)"/i.exec(disposition);
  return match ? match[1] : undefined;
}

export async function readFormUpload(body: AsyncIterable<Buffer>, boundary: string): Promise<FormUpload> {
  const source = new ByteSource(body[Symbol.asyncIterator]());
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The first delimiter may open the body directly, without the CRLF in front.
  source.buffer = CRLF;
  await source.readUntil(delimiter, MAX_HEADER_BYTES, 'the preamble');
  const fields: Record<string, string> = {};
  for (let count = 0; ; count++) {
    if (count > MAX_FIELDS) throw malformed('too many fields');
    const after = (await source.take(2)).toString('latin1');
    if (after === '--') throw malformed('no file part');
    if (after !== '\r\n') throw malformed('bad delimiter');
    const headers = (await source.readUntil(Buffer.from('\r\n\r\n'), MAX_HEADER_BYTES, 'part headers')).toString('utf8');
    const name = partName(headers);
    if (name === undefined) throw malformed('a part has no name');
    if (name === 'file') return { fields, file: fileChunks(source, delimiter) };
    fields[name] = (await source.readUntil(delimiter, MAX_FIELD_BYTES, `field ${name}`)).toString('utf8');
  }
}

async function* fileChunks(source: ByteSource, delimiter: Buffer): AsyncGenerator<Buffer> {
  // Keep back as many bytes as could be the start of a delimiter split across chunks.
  const keep = delimiter.length - 1;
  for (;;) {
    const at = source.buffer.indexOf(delimiter);
    if (at >= 0) {
      if (at > 0) yield source.buffer.subarray(0, at);
      source.buffer = Buffer.alloc(0);
      return;
    }
    if (source.buffer.length > keep) {
      const ready = source.buffer.subarray(0, source.buffer.length - keep);
      source.buffer = source.buffer.subarray(source.buffer.length - keep);
      yield ready;
    }
    // An upload cut off before its closing delimiter is incomplete, never stored.
    if (!(await source.pull())) throw malformed('the file part was cut off');
  }
}
