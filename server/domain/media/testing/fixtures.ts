import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { deflateSync, crc32 } from 'node:zlib';

/** Real, minimal files of the kinds the library accepts, built in code (no binary fixtures). */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A valid PNG of `width`×`height` opaque pixels in a gradient (so bytes differ through the file). */
export function tinyPng(width = 16, height = 16): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 4);
    for (let x = 0; x < width; x++) row.set([x * 16, y * 16, (x + y) * 8, 255], 1 + x * 4);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The ISO base media `ftyp` box that makes a file an MP4. */
export function mp4Header(): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftypisom', 4, 'latin1');
  box.writeUInt32BE(0x200, 12);
  box.write('isomiso2', 16, 'latin1');
  return box;
}

/** A small MP4: the ftyp box and an `mdat` box of random payload. */
export function smallMp4(payloadBytes = 64 * 1024): Buffer {
  const mdatHeader = Buffer.alloc(8);
  mdatHeader.writeUInt32BE(8 + payloadBytes, 0);
  mdatHeader.write('mdat', 4, 'latin1');
  return Buffer.concat([mp4Header(), mdatHeader, randomBytes(payloadBytes)]);
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Writes an MP4-headed file of `bytes` bytes in 1 MiB chunks; returns its SHA-256. */
export async function writeLargeMp4(filePath: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(filePath);
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => out.write(chunk, (err) => (err ? reject(err) : resolve())));
  const header = mp4Header();
  hash.update(header);
  await write(header);
  for (let written = header.length; written < bytes; ) {
    const chunk = randomBytes(Math.min(1024 * 1024, bytes - written));
    hash.update(chunk);
    await write(chunk);
    written += chunk.length;
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return hash.digest('hex');
}
