/**
 * Upload limits (SPEC §5, §9). An upload's kind is fixed when its URL is issued, so the limit that
 * applies travels with the upload and cannot be raised by the client afterwards.
 */

/** Library media (display and phone files): 50 MB. */
export const MEDIA_MAX_BYTES = 52_428_800;
/** Theme images (logo, header and main background): 10 MB. */
export const THEME_MAX_BYTES = 10_485_760;
/**
 * The generic uploader's companion endpoints, whose multipart path exists for files above 100 MB
 * (cinema trailers): 2 GiB. Not in the spec; chosen so a feature-length trailer fits.
 */
export const LARGE_MAX_BYTES = 2 * 1024 ** 3;

/** S3's multipart rules, which the local store follows too. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PARTS = 10_000;

/** How long a signed upload or part URL stays valid (SPEC §9: signed URL lifetime 604800 s). */
export const UPLOAD_URL_TTL_SECONDS = 604_800;

export type UploadKind = 'media' | 'theme' | 'large';

export function maxBytesFor(kind: UploadKind): number {
  return kind === 'theme' ? THEME_MAX_BYTES : kind === 'large' ? LARGE_MAX_BYTES : MEDIA_MAX_BYTES;
}

export function describeBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1024 ? `${+(mb / 1024).toFixed(1)} GB` : `${+mb.toFixed(1)} MB`;
}
