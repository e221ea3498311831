import { z } from 'zod';

/** An id as a path carries it; a NUL would reach PostgreSQL (which refuses it in text) as a 500. */
export const mediaRouteId = z.string().max(100).refine((v) => !v.includes('\0'), 'must not contain NUL characters');
const id = mediaRouteId.pipe(z.string().min(1));
export const idParam = z.object({ id });
export const assignmentParam = z.object({ id, mediaId: id });

/** `/media/{objectId}`, as the web uploader stores a finished upload. */
const MEDIA_PATH = /^\/media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
export const objectIdOfPath = (path: string): string => MEDIA_PATH.exec(path)![1];

const mediaPath = z.string().trim().regex(MEDIA_PATH, 'must be the /media/{id} path of an uploaded file');

const blankToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

export const createMediaBody = z.object({
  filePath: mediaPath,
  phoneFilePath: z.preprocess(blankToNull, mediaPath.nullable().optional()),
  fileType: z.enum(['image', 'video']),
  duration: z.number().int('must be a whole number of seconds').min(1).max(60).default(3),
  promotionalLink: z.preprocess(blankToNull, httpUrl.nullable().optional()),
});

export const durationBody = z.object({
  duration: z.number().int('must be a whole number of seconds').min(1).max(60),
});

export const assignBody = z.object({ mediaId: id });

/** Which limit an upload gets: theme images 10 MB, library media 50 MB (SPEC §5). */
export const uploadKind = z.enum(['media', 'theme']);
export const uploadBody = z.object({ kind: uploadKind.optional() }).nullish();
export const uploadQuery = z.object({ kind: uploadKind.optional() });

// --- Uppy's companion protocol (@uppy/aws-s3 with `companionEndpoint: '/api/media'`) ---

const key = z.string().min(1).max(200);
const uploadId = z.string().min(1).max(1024);
/** Uppy sends file metadata; `kind` picks the limit like the upload call's kind. */
const metadata = z.record(z.string(), z.unknown()).optional();

/** Stored with the upload: a NUL would reach PostgreSQL (which refuses it in text) as a 500. */
const storedText = (max: number) => z.string().max(max).refine((v) => !v.includes('\0'), 'must not contain NUL characters');
export const paramsQuery = z
  .object({ filename: storedText(1000).optional(), type: storedText(200).optional(), 'metadata[kind]': z.string().max(20).optional() })
  .loose();
export const createMultipartBody = z.object({
  filename: storedText(1000).optional(),
  type: storedText(200).optional(),
  metadata,
});
export const keyQuery = z.object({ key });
export const uploadParam = z.object({ uploadId });
export const partParam = z.object({ uploadId, partNumber: z.coerce.number().int().min(1).max(10_000) });
export const completeBody = z.object({
  parts: z
    .array(z.object({ PartNumber: z.coerce.number().int().min(1).max(10_000), ETag: z.string().min(1).max(200) }))
    .min(1, 'at least one part is required')
    .max(10_000),
});

// --- Signed upload URLs served by this server (local store) ---

export const objectParam = z.object({ objectId: z.string().min(1).max(100) });
export const signedQuery = z.object({ expires: z.string().max(20).optional(), signature: z.string().max(200).optional() });
export const partUploadParam = z.object({ objectId: z.string().min(1).max(100), partNumber: z.coerce.number().int().min(1).max(10_000) });
export const partUploadQuery = signedQuery.extend({ uploadId: z.string().max(1024).optional() });
