import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyReply, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App, AppDeps, RouteModule } from './context.js';
import { CSP_NONCE_PLACEHOLDER, contentSecurityPolicy, newCspNonce, s3OriginOf } from './csp.js';
import { installErrorHandler } from './error-handler.js';
import { requireAdmin } from './auth-guard.js';
import { authRoutes } from './auth/routes.js';
import { sessionRoutes } from './sessions/routes.js';
import { itemRoutes } from './items/routes.js';
import { questionRoutes } from './questions/routes.js';
import { questionTransferRoutes } from './questions/transfer-routes.js';
import { drawRoutes } from './draws/routes.js';
import { playerAdminRoutes } from './players/routes.js';
import { resultsRoutes } from './results/routes.js';
import { auditoriumRoutes } from './auditoriums/routes.js';
import { auditoriumScreenRoutes, showtimeRoutes } from './showtimes/routes.js';
import { publicRoutes } from './public/routes.js';
import { playerAnswerRoutes } from './players/answer-route.js';
import { screenLinkRoutes } from './screens/routes.js';
import { opsRoutes } from './ops/routes.js';
import { installRequestTelemetry, loggingOptions } from '../../ops/logging.js';
import { fastifyTrustProxy } from '../../trust-proxy.js';

export interface BuildAppOptions {
  /** Built web app (index.html + assets); when missing, non-API paths answer a short note. */
  webDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Extra route modules needing an admin (media, added by its own module). */
  adminRoutes?: RouteModule[];
  /** Extra public route modules (uploads, media serving, WebSocket). */
  publicRoutes?: RouteModule[];
}

/** Request bodies above this are refused with 413 (uploads stream through their own route). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<App> {
  const app = Fastify({
    ...loggingOptions(options.logger ?? false),
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // Off unless TRUST_PROXY names the proxies (DESIGN §15): X-Forwarded-* from anyone else is ignored.
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    return503OnClosing: true,
    // Errors raised before routing (bad percent-encoding) also leave as { message }, without the URL.
    frameworkErrors: (error, _request, reply) => {
      const messages: Record<string, string> = {
        FST_ERR_BAD_URL: 'Malformed URL',
        FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
      };
      // The generic reply type of this hook knows no status codes; it answers before any route.
      (reply as unknown as FastifyReply).status(error.statusCode ?? 400).send({ message: messages[error.code] ?? 'Bad request' });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installRequestTelemetry(app, deps.metrics);
  app.addHook('onSend', async (_request, reply, payload) => {
    // Browsers must not guess types (uploads are user content), and no other site may frame our
    // pages (the dashboard's buttons start and stop shows).
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) reply.header('x-frame-options', 'SAMEORIGIN');
    return payload;
  });

  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Marquee API', description: 'Live trivia for theaters and cinemas', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  // Public calls: login, public session info, join links, player registration.
  authRoutes(app, deps);
  publicRoutes(app, deps);
  playerAnswerRoutes(app, deps);
  auditoriumScreenRoutes(app, deps);
  opsRoutes(app, deps);
  for (const module of options.publicRoutes ?? []) module(app, deps);

  // Everything an administrator does, behind one guard.
  await app.register(async (admin) => {
    admin.addHook('onRequest', requireAdmin(deps));
    const scoped = admin.withTypeProvider<ZodTypeProvider>() as App;
    for (const module of [
      sessionRoutes, itemRoutes, questionRoutes, questionTransferRoutes, drawRoutes, playerAdminRoutes, auditoriumRoutes, showtimeRoutes, resultsRoutes, screenLinkRoutes,
      ...(options.adminRoutes ?? []),
    ]) {
      module(scoped, deps);
    }
  });

  registerWebApp(app, options.webDir, s3OriginOf(deps.config));
  return app;
}

/**
 * Serves the built React app, and index.html for every other non-API path, so the client router
 * decides (including its 'Page Not Found' page).
 */
function registerWebApp(app: App, webDir: string | undefined, s3Origin: string | null): void {
  const indexFile = webDir ? path.join(webDir, 'index.html') : undefined;
  const hasWeb = indexFile !== undefined && fs.existsSync(indexFile);
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: webDir!,
      wildcard: false,
      index: false,
      cacheControl: false,
      // Hashed asset names never change content: cache them for a year.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = request.url.split('?')[0];
    const isApi = urlPath === '/api' || urlPath.startsWith('/api/') || urlPath === '/ws' || urlPath.startsWith('/media/');
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ message: `No route for ${request.method} ${urlPath}` });
    }
    if (urlPath.startsWith('/assets/')) return reply.status(404).send({ message: 'Not found' });
    if (!hasWeb) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    // Read per page load (a rebuild takes effect at once); each load gets its own CSP nonce.
    const nonce = newCspNonce();
    const html = (await fs.promises.readFile(indexFile!, 'utf8')).replaceAll(CSP_NONCE_PLACEHOLDER, nonce);
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', contentSecurityPolicy({ nonce, host: request.host, s3Origin }))
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
