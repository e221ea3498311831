import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';

const tags = ['operations'];

const healthBody = z.object({ status: z.literal('ok') });
const checkValue = z.string().describe("'ok', 'off' (not configured) or a short reason");
const readyBody = z.object({
  status: z.enum(['ready', 'unready']),
  checks: z.object({ database: checkValue, redis: checkValue, media: checkValue }),
});

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Liveness, readiness and Prometheus metrics (DESIGN §12), for load balancers, orchestrators and
 * Prometheus. No auth and no secrets on the probes; /metrics wants METRICS_TOKEN when it is set.
 */
export const opsRoutes: RouteModule = (app, { config, metrics, readiness }) => {
  app.get('/healthz', { schema: { tags, summary: 'Liveness: the process answers', response: { 200: healthBody } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/readyz',
    { schema: { tags, summary: 'Readiness: database, Redis (when configured) and media store', response: { 200: readyBody, 503: readyBody } } },
    async (_request, reply) => {
      const { ready, checks } = await readiness.report();
      reply.header('cache-control', 'no-store');
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unready', checks });
    },
  );

  app.get(
    '/metrics',
    { schema: { tags, summary: 'Prometheus text exposition; bearer METRICS_TOKEN when configured', security: [{ bearer: [] }] } },
    async (request, reply) => {
      if (config.metricsToken) {
        const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
        if (!match || !sameSecret(match[1], config.metricsToken)) {
          reply.header('www-authenticate', 'Bearer');
          throw AppError.unauthorized('A valid METRICS_TOKEN bearer token is required');
        }
      }
      const text = await metrics.render();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
    },
  );
};
