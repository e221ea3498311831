/**
 * Request logging and metrics: one JSON line per request (pino, through Fastify) with its request
 * id, and the request's duration in the HTTP histogram under its route pattern.
 *
 * No secret reaches a log line: query values that authorise something (admin and player tokens,
 * upload and media signatures, S3 presigned credentials) are replaced by "[redacted]", and headers
 * and bodies are never logged (the redact paths are a second guard should someone log them).
 */
import { randomUUID } from 'node:crypto';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Metrics } from './metrics.js';

/** Query parameters whose values are credentials (compared case-insensitively). */
const SECRET_QUERY_KEYS = new Set(['token', 'playertoken', 'signature', 'sig', 'x-amz-signature', 'x-amz-credential', 'x-amz-security-token', 'password']);
export const REDACTED = '[redacted]';

/** The URL with the values of credential parameters replaced; anything unparsable loses its query. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const path = url.slice(0, queryStart);
  try {
    const params = new URLSearchParams(url.slice(queryStart + 1));
    for (const key of [...params.keys()]) if (SECRET_QUERY_KEYS.has(key.toLowerCase())) params.set(key, REDACTED);
    return `${path}?${params.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED)}`;
  } catch {
    return `${path}?${REDACTED}`;
  }
}

/** Paths polled by load balancers and Prometheus: logged at debug when they succeed, not every second at info. */
const PROBE_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** A request id from the proxy in front (X-Request-Id) when it looks like one, else a new one. */
function requestId(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
}

/** Fastify's own two lines per request (incoming, completed) become one, written when the response is done. */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url ?? 'unmatched';
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      route,
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
      ...(error ? { err: error } : {}),
    };
    if (error) reply.log.error(line, 'request');
    else if (PROBE_ROUTES.has(route) && reply.statusCode < 400) reply.log.debug(line, 'request');
    else reply.log.info(line, 'request');
  }
}

/** Fastify options for logging: redaction and the request serializer, merged into the caller's logger options. */
export function loggingOptions(logger: FastifyServerOptions['logger']): Pick<FastifyServerOptions, 'logger' | 'logController' | 'genReqId'> {
  const base = logger === true ? {} : logger;
  return {
    logger: base
      ? {
          ...base,
          redact: {
            paths: [
              'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', 'body', 'req.body',
              'password', 'token', 'playerToken', '*.password', '*.token', '*.playerToken',
            ],
            censor: REDACTED,
          },
          serializers: {
            req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
          },
        }
      : false,
    logController: new OneLinePerRequest(),
    genReqId: requestId,
  };
}

/** The request id goes back in a header (support can find the log line); each response is measured. */
export function installRequestTelemetry(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern (/api/admin/sessions/:id), never the raw URL: one series per route.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequestSeconds.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
