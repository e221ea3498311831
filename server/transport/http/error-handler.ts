import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { storageFaultCause } from '../../storage/faults.js';
import { DomainError } from '../../errors.js';
import { AppError, statusOf } from './errors.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

function describeIssues(issues: ValidationIssue[], context: string | undefined): { message: string; errors: object[] } {
  const errors = issues.map((issue) => {
    const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    return { field: field || context || 'body', message: issue.message ?? 'is invalid' };
  });
  const first = errors[0];
  const where = first ? (first.field === 'body' || first.field === context ? '' : `${first.field}: `) : '';
  return { message: first ? `Invalid ${context ?? 'request'}: ${where}${first.message}` : 'Invalid request', errors };
}

/**
 * Every error leaves as `{ message }` with a fitting status (DESIGN §2). Client mistakes never
 * answer 500, and nothing answers with a stack trace.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError || error instanceof DomainError) {
      const status = error instanceof DomainError ? statusOf(error) : error.statusCode;
      if (status === 429 && typeof error.extra.retryAfterSeconds === 'number') {
        reply.header('retry-after', String(error.extra.retryAfterSeconds));
      }
      const { retryAfterSeconds: _omit, ...extra } = error.extra;
      return reply.status(status).send({ message: error.message, ...extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send(describeIssues(error.validation as ValidationIssue[], error.validationContext));
    }
    if (error.validation) {
      return reply.status(400).send(describeIssues(error.validation as ValidationIssue[], error.validationContext));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, unsupported content type, body too large...
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'Malformed JSON body'
          : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'A JSON content type was sent with an empty body'
            : error.message;
      return reply.status(status).send({ message });
    }
    // The database or its disk is away (DESIGN §16): a temporary condition, said as one, cause logged.
    const cause = storageFaultCause(error);
    if (cause) {
      request.log.error({ err: error, cause }, `request failed: database unavailable (${cause})`);
      return reply.status(503).header('retry-after', '5').send({ message: 'The database is unavailable right now; try again in a moment' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Internal server error' });
  });

}
