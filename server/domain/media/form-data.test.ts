import { describe, expect, it } from 'vitest';
import { boundaryOf, readFormUpload } from './form-data.js';

const BOUNDARY = '----uppy-boundary-1234';

function formBody(fields: Record<string, string>, file: Buffer | undefined, trailer = true): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: image/png\r\n\r\n`));
    parts.push(file);
    if (trailer) parts.push(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
  } else {
    parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  }
  return Buffer.concat(parts);
}

/** Feeds a body in chunks of `size` bytes, so delimiters fall across chunk edges. */
async function* chunked(body: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < body.length; i += size) yield body.subarray(i, i + size);
}

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('readFormUpload', () => {
  // File content that contains near-misses of the delimiter.
  const file = Buffer.concat([Buffer.from(`\r\n--${BOUNDARY.slice(0, -1)}x`), Buffer.alloc(5000, 7), Buffer.from('\r\n-')]);

  it('collects the fields and streams the file, whatever the chunking', async () => {
    const body = formBody({ key: 'object-1', expires: '123', signature: 'abc' }, file);
    for (const size of [1, 3, 17, 1024, body.length]) {
      const form = await readFormUpload(chunked(body, size), BOUNDARY);
      expect(form.fields).toEqual({ key: 'object-1', expires: '123', signature: 'abc' });
      expect((await collect(form.file)).equals(file), `chunk size ${size}`).toBe(true);
    }
  });

  it('refuses a form without a file part and a file cut off before its end', async () => {
    await expect(readFormUpload(chunked(formBody({ key: 'k' }, undefined), 10), BOUNDARY)).rejects.toThrow(/no file part/);
    const cut = await readFormUpload(chunked(formBody({ key: 'k' }, file, false), 10), BOUNDARY);
    await expect(collect(cut.file)).rejects.toThrow(/cut off/);
  });

  it('finds the boundary in the content type', () => {
    expect(boundaryOf(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(boundaryOf('multipart/form-data; boundary="quoted value"')).toBe('quoted value');
    expect(boundaryOf('application/json')).toBeUndefined();
    expect(boundaryOf(undefined)).toBeUndefined();
  });
});
