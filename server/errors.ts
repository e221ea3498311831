/**
 * The refusals a domain rule can make, named by kind rather than by HTTP status: the domain
 * (sessions, questions, media, players, ...) sits below the transports and must not know them.
 * server/transport/http/errors.ts maps each kind to its status; `extra` fields are sent beside the message.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'unsupported'
  | 'rate_limited';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  static invalid(message: string, extra?: Record<string, unknown>) {
    return new DomainError('invalid', message, extra);
  }
  static forbidden(message: string, extra?: Record<string, unknown>) {
    return new DomainError('forbidden', message, extra);
  }
  static notFound(message: string) {
    return new DomainError('not_found', message);
  }
  static conflict(message: string) {
    return new DomainError('conflict', message);
  }
  static tooLarge(message: string) {
    return new DomainError('too_large', message);
  }
  static unsupported(message: string) {
    return new DomainError('unsupported', message);
  }
  static rateLimited(message: string, retryAfterSeconds: number) {
    return new DomainError('rate_limited', message, { retryAfterSeconds });
  }
}

/** True for a domain refusal of one of the given kinds (any kind when none are given). */
export function isDomainError(err: unknown, ...kinds: DomainErrorKind[]): err is DomainError {
  return err instanceof DomainError && (kinds.length === 0 || kinds.includes(err.kind));
}
