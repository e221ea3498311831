// Upload limits and address helpers, kept free of Uppy so forms can use them without loading it.

/** SPEC §9 limits. */
export const MEDIA_MAX_BYTES = 52_428_800;
export const THEME_IMAGE_MAX_BYTES = 10_485_760;
export const MULTIPART_THRESHOLD_BYTES = 100 * 1024 * 1024;

/** Last path segment of the upload address, before the query string. */
export function objectIdFromUploadUrl(uploadUrl: string | undefined): string | null {
  if (!uploadUrl) return null;
  const path = uploadUrl.split('?')[0].split('#')[0];
  const segment = path.split('/').filter(Boolean).pop();
  if (!segment || segment.includes(':')) return null;
  return decodeURIComponent(segment);
}

export function mediaPath(objectId: string): string {
  return `/media/${objectId}`;
}

/** 'video' or 'image' from the file's content type (SPEC §4 "Media upload"). */
export function mediaKind(contentType: string | undefined): 'video' | 'image' {
  return contentType?.startsWith('video/') ? 'video' : 'image';
}
