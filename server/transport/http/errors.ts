import type { DomainError, DomainErrorKind } from '../../errors.js';

/** The status each domain refusal (server/errors.ts) answers over HTTP. */
export const STATUS_FOR_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported: 415,
  rate_limited: 429,
};

export const statusOf = (error: DomainError): number => STATUS_FOR_KIND[error.kind];

/**
 * Errors a client can cause that the HTTP layer itself raises (guards, routes), with the status
 * they answer; the domain throws DomainError instead. Anything else is a bug and answers a plain
 * 500 without details (the log keeps them).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  static badRequest(message: string, extra?: Record<string, unknown>) {
    return new AppError(400, message, extra);
  }
  static unauthorized(message = 'Authentication required') {
    return new AppError(401, message);
  }
  static forbidden(message: string, extra?: Record<string, unknown>) {
    return new AppError(403, message, extra);
  }
  static notFound(message: string) {
    return new AppError(404, message);
  }
  static conflict(message: string) {
    return new AppError(409, message);
  }
  static tooLarge(message: string) {
    return new AppError(413, message);
  }
  static unsupportedMediaType(message: string) {
    return new AppError(415, message);
  }
  static tooManyRequests(message: string, retryAfterSeconds: number) {
    return new AppError(429, message, { retryAfterSeconds });
  }
}
