import type { ByteRange } from '../../../domain/media/store.js';

/**
 * HTTP details of serving stored media: byte ranges (video seeking on phones and the big screen)
 * and conditional requests. Pure functions over header values.
 */

/**
 * The range asked for by a `Range` header over `size` bytes: undefined means "send everything"
 * (no header, another unit, several ranges or bad syntax, all of which a server may ignore);
 * 'unsatisfiable' means 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    // A suffix: the last N bytes.
    const length = Number(match[2]);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1) };
}

/** If-None-Match against our (strong) ETag, compared weakly as RFC 9110 asks for this header. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

/** If-Range: the range applies only while the client's copy is the current one. */
export function rangeStillValid(ifRange: string | undefined, etag: string): boolean {
  return ifRange === undefined || ifRange.trim() === etag;
}

/** SVG can carry scripts: opened directly, it must not run them in our origin. */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
