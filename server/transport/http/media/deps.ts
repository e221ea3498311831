import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { MediaUploads } from '../../../domain/media/uploads.js';
import type { AppDeps } from '../context.js';

const services = new WeakMap<AppDeps, MediaUploads>();

/** One upload service per app (admin and public route modules share it). */
export function uploadsFor(deps: AppDeps, log: FastifyBaseLogger): MediaUploads {
  let uploads = services.get(deps);
  if (!uploads) {
    uploads = new MediaUploads(deps.store.media, deps.mediaStore, (err) => log.error({ err }, 'clearing expired uploads failed'));
    services.set(deps, uploads);
  }
  return uploads;
}

/**
 * Scheme and host the browser used to reach us (trustProxy follows X-Forwarded-*), for upload
 * URLs: the admin's browser uploads to the origin it is on, whatever PUBLIC_URL says for phones.
 */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
