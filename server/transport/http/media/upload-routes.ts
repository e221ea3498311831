import type { UploadKind } from '../../../domain/media/limits.js';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';
import { originOf, uploadsFor } from './deps.js';
import {
  completeBody, createMultipartBody, keyQuery, paramsQuery, partParam, uploadBody, uploadParam, uploadQuery,
} from './schema.js';

const tags = ['media uploads'];

/**
 * The generic uploader's companion calls set their limit through file metadata: `kind` 'media' or
 * 'theme' as for the upload call, and without one the large limit meant for multipart trailers.
 */
const companionKind = (kind: unknown): UploadKind => (kind === 'media' || kind === 'theme' ? kind : 'large');

/**
 * Issuing upload URLs: `POST /api/media/upload` for the media and theme dialogs, and the S3
 * companion endpoints Uppy's aws-s3 plugin calls with `companionEndpoint: '/api/media'`
 * (`${companionEndpoint}/s3/...`). All need an admin; the URLs they hand out carry their own
 * authorisation (a signature), so the upload itself needs none.
 */
export const mediaUploadRoutes: RouteModule = (app, deps) => {
  const uploads = uploadsFor(deps, app.log);

  app.post('/api/media/upload', { schema: { tags, body: uploadBody, querystring: uploadQuery } }, async (request) => {
    const kind = request.body?.kind ?? request.query.kind ?? 'media';
    const { uploadURL } = await uploads.issuePut(kind, originOf(request));
    return { uploadURL };
  });

  // Single-request uploads through the companion: a form POST target (S3 POST policy shape).
  app.get('/api/media/s3/params', { schema: { tags, querystring: paramsQuery } }, async (request) => {
    const q = request.query;
    return uploads.issuePost(companionKind(q['metadata[kind]']), q.type ?? null, originOf(request));
  });

  app.post('/api/media/s3/multipart', { schema: { tags, body: createMultipartBody } }, async (request) => {
    const { type, metadata } = request.body;
    return uploads.startMultipart(companionKind(metadata?.kind), type ?? null);
  });

  app.get('/api/media/s3/multipart/:uploadId', { schema: { tags, params: uploadParam, querystring: keyQuery } }, async (request) => {
    return uploads.listParts(request.query.key, request.params.uploadId);
  });

  app.get(
    '/api/media/s3/multipart/:uploadId/:partNumber',
    { schema: { tags, params: partParam, querystring: keyQuery } },
    async (request) => {
      const { uploadId, partNumber } = request.params;
      return uploads.signPart(request.query.key, uploadId, partNumber, originOf(request));
    },
  );

  app.post(
    '/api/media/s3/multipart/:uploadId/complete',
    { schema: { tags, params: uploadParam, querystring: keyQuery, body: completeBody } },
    async (request) => {
      return uploads.completeMultipart(request.query.key, request.params.uploadId, request.body.parts, originOf(request));
    },
  );

  app.delete('/api/media/s3/multipart/:uploadId', { schema: { tags, params: uploadParam, querystring: keyQuery } }, async (request, reply) => {
    await uploads.abortMultipart(request.query.key, request.params.uploadId);
    return reply.status(204).send();
  });

  // Temporary credentials would let browsers sign for themselves; this server signs every request.
  app.get('/api/media/s3/sts', { schema: { tags } }, async () => {
    throw new AppError(501, 'Temporary credentials are not offered: uploads are signed by this server (s3/params, s3/multipart)');
  });
};
