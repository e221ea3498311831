import type { FastifyError } from 'fastify';
import type { App } from './context.js';
import { AppError } from './errors.js';

/**
 * A scope for routes whose body is an uploaded file's raw bytes, whatever its content type, up to
 * `maxBytes` (the question import, the showtime import). A larger file answers 413 with `tooLarge`.
 */
export function registerFileRoutes(app: App, maxBytes: number, tooLarge: string, register: (files: App) => void): void {
  void app.register(async (scope) => {
    const files = scope as App;
    files.removeAllContentTypeParsers();
    files.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) => done(null, body));
    files.setErrorHandler((error: FastifyError) => {
      // Rethrown errors reach the app's handler, which words them as { message }.
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw AppError.tooLarge(tooLarge);
      throw error;
    });
    register(files);
  });
}

/** The uploaded file's bytes; an empty upload is a 400 in the import error shape. */
export function fileBytes(body: unknown): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  if (bytes.length === 0) throw AppError.badRequest('The file is empty.', { errors: [] });
  return bytes;
}
