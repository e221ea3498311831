import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, type DomainErrorKind } from '../../errors.js';
import { installErrorHandler } from './error-handler.js';
import { AppError } from './errors.js';

// Domain refusals carry a kind, not a status: this is the one place that says which status each
// kind answers, and that the body stays `{ message, ...extra }` as it was with AppError.
const app = Fastify();
installErrorHandler(app);
app.get('/domain/:kind', async (request) => {
  const { kind } = request.params as { kind: DomainErrorKind };
  throw new DomainError(kind, `refused: ${kind}`, kind === 'invalid' ? { errors: [{ line: 2, message: 'bad' }] } : {});
});
app.get('/rate-limited', async () => {
  throw DomainError.rateLimited('Too many players joined from this network', 42);
});
app.get('/app-error', async () => {
  throw AppError.unauthorized();
});

beforeAll(() => app.ready());
afterAll(() => app.close());

describe('the error handler', () => {
  it.each<[DomainErrorKind, number]>([
    ['invalid', 400],
    ['unauthenticated', 401],
    ['forbidden', 403],
    ['not_found', 404],
    ['conflict', 409],
    ['too_large', 413],
    ['unsupported', 415],
  ])('answers a DomainError of kind %s with %i and its message', async (kind, status) => {
    const res = await app.inject({ url: `/domain/${kind}` });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ message: `refused: ${kind}` });
  });

  it('sends the extra fields beside the message', async () => {
    const res = await app.inject({ url: '/domain/invalid' });
    expect(res.json()).toEqual({ message: 'refused: invalid', errors: [{ line: 2, message: 'bad' }] });
  });

  it('answers rate_limited with 429 and Retry-After, without the seconds in the body', async () => {
    const res = await app.inject({ url: '/rate-limited' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('42');
    expect(res.json()).toEqual({ message: 'Too many players joined from this network' });
  });

  it('still answers the HTTP layer’s own AppError with its status', async () => {
    const res = await app.inject({ url: '/app-error' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Authentication required' });
  });
});
