import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { detachedChunks } from '../../../domain/media/chunks.js';
import { uploadErrors } from '../../../domain/media/errors.js';
import { boundaryOf, readFormUpload } from '../../../domain/media/form-data.js';
import { LocalMediaStore } from '../../../domain/media/local-store.js';
import type { SignatureCheck } from '../../../domain/media/signatures.js';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';
import { originOf, uploadsFor } from './deps.js';
import { mediaRouteId, objectParam, partUploadParam, partUploadQuery, signedQuery } from './schema.js';
import { IMMUTABLE_CACHE, SVG_POLICY, etagMatches, parseRange, rangeStillValid } from './serve.js';

const requireValid = (check: SignatureCheck) => {
  if (check === 'expired') throw uploadErrors.expired();
  if (check === 'invalid') throw uploadErrors.badSignature();
};

/**
 * Routes without an admin: serving `/media/{objectId}` to displays and phones, and (local store
 * only) the signed upload URLs, where the signature is the authorisation.
 */
export const mediaPublicRoutes: RouteModule = (app, deps) => {
  const uploads = uploadsFor(deps, app.log);

  // GET and HEAD together: Fastify's automatic HEAD route would read the whole file to discard it.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/:id',
    schema: { tags: ['media'], params: z.object({ id: mediaRouteId }) },
    handler: async (request, reply) => {
      const object = await uploads.ready(request.params.id);
      if (!object?.contentType || object.size == null) throw AppError.notFound('Media not found');
      const etag = `"${object.etag}"`;
      // Caching headers go on successful answers only: an error must never be cached for a year.
      const describe = () => {
        reply
          .header('etag', etag)
          .header('cache-control', IMMUTABLE_CACHE)
          .header('x-content-type-options', 'nosniff')
          .header('accept-ranges', 'bytes');
        if (object.contentType === 'image/svg+xml') reply.header('content-security-policy', SVG_POLICY);
      };
      if (etagMatches(request.headers['if-none-match'], etag)) {
        describe();
        return reply.status(304).send();
      }

      const size = object.size;
      const ifRange = request.headers['if-range'];
      const rangeApplies = rangeStillValid(typeof ifRange === 'string' ? ifRange : undefined, etag);
      const range = rangeApplies ? parseRange(request.headers.range, size) : undefined;
      if (range === 'unsatisfiable') {
        return reply.status(416).header('content-range', `bytes */${size}`).send({ message: 'Range Not Satisfiable' });
      }
      const body = request.method === 'HEAD' ? undefined : await deps.mediaStore.open(object.id, range);
      describe();
      reply.type(object.contentType);
      if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      reply.header('content-length', range ? range.end - range.start + 1 : size);
      return reply.send(body);
    },
  });

  const store = deps.mediaStore;
  if (!(store instanceof LocalMediaStore)) return;

  // Upload bodies are files of any type, read as a stream by the handler: no parsing, no body limit.
  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.addHook('onError', async (request, reply) => {
      // Refused before the body was read: close the connection rather than read the rest of it.
      if (!request.raw.complete) reply.header('connection', 'close');
    });
    const tags = ['uploads'];

    scope.put('/api/uploads/:objectId', { schema: { tags, params: objectParam, querystring: signedQuery } }, async (request) => {
      const { objectId } = request.params;
      requireValid(store.signer.verify('put', [objectId], request.query.expires, request.query.signature));
      await uploads.receive(objectId, detachedChunks(request.raw));
      return { location: `${originOf(request)}/media/${objectId}`, filePath: `/media/${objectId}` };
    });

    // The form POST of Uppy's s3/params path: fields (key, expires, signature), then the file.
    scope.post('/api/uploads', { schema: { tags } }, async (request, reply) => {
      const boundary = boundaryOf(request.headers['content-type']);
      if (!boundary) throw AppError.badRequest('Expected a multipart/form-data upload');
      const form = await readFormUpload(detachedChunks(request.raw), boundary);
      const objectId = form.fields.key ?? '';
      requireValid(store.signer.verify('post', [objectId], form.fields.expires, form.fields.signature));
      const object = await uploads.receive(objectId, form.file);
      return reply.status(204).header('etag', `"${object.etag}"`).header('location', `${originOf(request)}/media/${objectId}`).send();
    });

    scope.put(
      '/api/uploads/:objectId/parts/:partNumber',
      { schema: { tags, params: partUploadParam, querystring: partUploadQuery } },
      async (request, reply) => {
        const { objectId, partNumber } = request.params;
        const { uploadId = '', expires, signature } = request.query;
        requireValid(store.signer.verify('part', [objectId, uploadId, partNumber], expires, signature));
        const etag = await uploads.receivePart(objectId, uploadId, partNumber, detachedChunks(request.raw));
        return reply.header('etag', `"${etag}"`).send({ ETag: etag, PartNumber: partNumber });
      },
    );
  });
};
