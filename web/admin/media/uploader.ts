import Uppy from '@uppy/core';
import AwsS3 from '@uppy/aws-s3';
import { api } from '../../common/api';

/** SPEC §9 limits. */
export const MEDIA_MAX_BYTES = 52_428_800;
export const THEME_IMAGE_MAX_BYTES = 10_485_760;
export const MULTIPART_THRESHOLD_BYTES = 100 * 1024 * 1024;

export interface UploaderOptions {
  id: string;
  maxFileSize: number;
  allowedFileTypes: string[];
  /** Theme images never use multipart (SPEC §9). */
  multipart: boolean;
}

/**
 * Each upload asks our server for a signed destination (POST /api/media/upload → { uploadURL })
 * and PUTs the file there; the object id is the URL's last path segment (DESIGN §7).
 *
 * Uppy 6's aws-s3 plugin signs per request (`signRequest`) instead of the older
 * `getUploadParameters`; a single PUT is the PutObject request. Multipart would only start
 * above 100 MB, which the 50 MB per-file restriction never lets through, so it is refused here
 * rather than half-supported.
 */
async function signRequest(request: { method: string; uploadId?: string; contentType?: string }) {
  if (request.method !== 'PUT' || request.uploadId) {
    throw new Error('Multipart uploads are not available for this file.');
  }
  const { uploadURL } = await api.post<{ uploadURL: string }>('/api/media/upload');
  return {
    url: uploadURL,
    headers: { 'Content-Type': request.contentType || 'application/octet-stream' },
  };
}

export function createUploader({ id, maxFileSize, allowedFileTypes, multipart }: UploaderOptions): Uppy {
  const uppy = new Uppy({
    id,
    autoProceed: true,
    restrictions: { maxNumberOfFiles: 1, maxFileSize, allowedFileTypes },
  });
  uppy.use(AwsS3, {
    signRequest: signRequest as never,
    shouldUseMultipart: (file) =>
      multipart && (file.size ?? 0) > MULTIPART_THRESHOLD_BYTES,
    limit: 6,
  });
  return uppy;
}

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
