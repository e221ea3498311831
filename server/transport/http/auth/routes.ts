import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ADMIN_COOKIE, ADMIN_TOKEN_TTL_MS } from '../../../domain/auth/admin-auth.js';
import { hashToken } from '../../../domain/auth/passwords.js';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS } from '../../../domain/auth/login-device.js';
import { adminCredentialOf, assertSameOriginForCookie } from '../auth-guard.js';
import type { AppDeps, RouteModule } from '../context.js';
import { AppError } from '../errors.js';
import { isCrossSiteCookieCall } from '../csrf.js';

const loginBody = z.object({
  username: z.string().trim().min(1, 'Username is required').max(200),
  password: z.string().min(1, 'Password is required').max(1000),
});

/**
 * A device that logged in as this username before is never slowed (DESIGN §15): it holds our
 * device cookie, or a session cookie that is still valid for that username.
 */
async function isKnownDevice(request: FastifyRequest, username: string, deps: AppDeps): Promise<boolean> {
  // Cookies ride along on requests other pages make: only our own page's login may use them.
  if (isCrossSiteCookieCall(request, deps.config.publicUrl)) return false;
  if (deps.loginDevices.holds(request.cookies?.[DEVICE_COOKIE], username)) return true;
  const session = request.cookies?.[ADMIN_COOKIE];
  const admin = session ? await deps.adminAuth.verify(session) : undefined;
  return admin !== undefined && admin.username.toLowerCase() === username.toLowerCase();
}

export const authRoutes: RouteModule = (app, deps) => {
  app.post('/api/admin/login', { schema: { tags: ['auth'], body: loginBody } }, async (request, reply) => {
    const { username, password } = request.body;
    const address = request.ip;
    const limited = !(await isKnownDevice(request, username, deps));
    if (limited) {
      const wait = await deps.loginLimiter.begin(username, address);
      if (wait > 0) throw AppError.tooManyRequests('Too many failed logins. Try again later.', wait);
    }
    const result = await deps.adminAuth.login(username, password);
    if (!result) throw AppError.unauthorized('Invalid credentials');
    if (limited) await deps.loginLimiter.succeeded(username, address);
    const secure = request.protocol === 'https';
    reply.setCookie(ADMIN_COOKIE, result.token, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: ADMIN_TOKEN_TTL_MS / 1000 });
    reply.setCookie(DEVICE_COOKIE, deps.loginDevices.issue(result.user.username), {
      httpOnly: true,
      sameSite: 'lax',
      path: '/api/admin/login',
      secure,
      maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
    });
    return { token: result.token, user: result.user };
  });

  app.post('/api/admin/logout', { schema: { tags: ['auth'] } }, async (request, reply) => {
    const credential = adminCredentialOf(request);
    const token = credential?.token;
    if (!token || !(await deps.adminAuth.verify(token))) throw AppError.unauthorized('Invalid or expired token');
    assertSameOriginForCookie(request, credential!.viaCookie, deps.config.publicUrl);
    await deps.adminAuth.logout(token);
    // Its admin sockets close too, on every instance (server/transport/ws/admin-sockets.ts).
    deps.lifecycle.emit('adminTokenRevoked', hashToken(token));
    reply.clearCookie(ADMIN_COOKIE, { path: '/' });
    return reply.status(204).send();
  });
};
