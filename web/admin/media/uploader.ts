import Uppy from '@uppy/core';
import AwsS3 from '@uppy/aws-s3';
import { api } from '../../common/api';
import { MULTIPART_THRESHOLD_BYTES } from './mediaPaths';

export interface UploaderOptions {
  id: string;
  maxFileSize: number;
  allowedFileTypes: string[];
  /** Which server-side limit applies: theme images 10 MB, library media 50 MB. */
  kind: 'media' | 'theme';
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
function signerFor(kind: UploaderOptions['kind']) {
  return async (request: { method: string; uploadId?: string; contentType?: string }) => {
    if (request.method !== 'PUT' || request.uploadId) {
      throw new Error('Multipart uploads are not available for this file.');
    }
    const { uploadURL } = await api.post<{ uploadURL: string }>('/api/media/upload', { kind });
    return {
      url: uploadURL,
      headers: { 'Content-Type': request.contentType || 'application/octet-stream' },
    };
  };
}

export function createUploader({ id, kind, maxFileSize, allowedFileTypes, multipart }: UploaderOptions): Uppy {
  const uppy = new Uppy({
    id,
    autoProceed: true,
    restrictions: { maxNumberOfFiles: 1, maxFileSize, allowedFileTypes },
  });
  uppy.use(AwsS3, {
    signRequest: signerFor(kind) as never,
    shouldUseMultipart: (file) =>
      multipart && (file.size ?? 0) > MULTIPART_THRESHOLD_BYTES,
    limit: 6,
  });
  return uppy;
}
