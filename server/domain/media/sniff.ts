import { fileTypeFromBuffer } from 'file-type';

/**
 * Content sniffing: what a file is, judged by its first bytes and never by the type the client
 * declares. Only images and videos are accepted into the media library.
 */

/** Enough leading bytes for every format file-type knows (its own "reasonable detection size"). */
export const SNIFF_BYTES = 4100;

export type MediaCategory = 'image' | 'video';

export function categoryOf(contentType: string): MediaCategory | undefined {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  return undefined;
}

// SVG is XML text, which file-type does not classify: an optional BOM, XML declaration, comments
// and doctype may come before the <svg> root element.
const SVG_ROOT =
  /^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>)\s*)*<svg[\s>/]/i;

/** The MIME type of an image or video, or undefined for anything else (text, archives, audio...). */
export async function sniffMediaType(head: Uint8Array): Promise<string | undefined> {
  if (head.length === 0) return undefined;
  const text = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, SNIFF_BYTES)).toString('utf8');
  if (SVG_ROOT.test(text)) return 'image/svg+xml';
  const detected = await fileTypeFromBuffer(head);
  return detected && categoryOf(detected.mime) ? detected.mime : undefined;
}
