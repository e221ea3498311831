import { z } from 'zod';
import { ADMIN_COOKIE, ADMIN_TOKEN_TTL_MS } from '../../auth/admin-auth.js';
import { adminTokenOf } from '../auth-guard.js';
import type { RouteModule } from '../context.js';
import { AppError } from '../errors.js';

const loginBody = z.object({
  username: z.string().trim().min(1, 'Username is required').max(200),
  password: z.string().min(1, 'Password is required').max(1000),
});

export const authRoutes: RouteModule = (app, deps) => {
  app.post('/api/admin/login', { schema: { tags: ['auth'], body: loginBody } }, async (request, reply) => {
    const address = request.ip;
    const wait = await deps.loginLimiter.retryAfterSeconds(address);
    if (wait > 0) throw AppError.tooManyRequests('Too many failed logins. Try again later.', wait);
    const result = await deps.adminAuth.login(request.body.username, request.body.password);
    if (!result) {
      await deps.loginLimiter.recordFailure(address);
      throw AppError.unauthorized('Invalid credentials');
    }
    await deps.loginLimiter.recordSuccess(address);
    reply.setCookie(ADMIN_COOKIE, result.token, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: request.protocol === 'https',
      maxAge: ADMIN_TOKEN_TTL_MS / 1000,
    });
    return { token: result.token, user: result.user };
  });

  app.post('/api/admin/logout', { schema: { tags: ['auth'] } }, async (request, reply) => {
    const token = adminTokenOf(request);
    if (!token || !(await deps.adminAuth.verify(token))) throw AppError.unauthorized('Invalid or expired token');
    await deps.adminAuth.logout(token);
    reply.clearCookie(ADMIN_COOKIE, { path: '/' });
    return reply.status(204).send();
  });
};
