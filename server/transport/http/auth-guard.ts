import type { FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_COOKIE } from '../../domain/auth/admin-auth.js';
import type { Admin } from '../../storage/admins.js';
import type { AppDeps } from './context.js';
import { AppError } from './errors.js';
import { CROSS_SITE_MESSAGE, isCrossSiteCookieCall } from './csrf.js';

declare module 'fastify' {
  interface FastifyRequest {
    admin?: Admin;
    adminToken?: string;
  }
}

/** The admin token of a request: the bearer header first, then the session cookie. */
export function adminTokenOf(request: FastifyRequest): string | undefined {
  return adminCredentialOf(request)?.token;
}

/** The token and where it came from: only a cookie is sent by the browser on its own (CSRF). */
export function adminCredentialOf(request: FastifyRequest): { token: string; viaCookie: boolean } | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (match) return { token: match[1]!, viaCookie: false };
  }
  const cookie = request.cookies?.[ADMIN_COOKIE];
  return cookie ? { token: cookie, viaCookie: true } : undefined;
}

/** 403 for a cookie-authenticated unsafe call from another origin (DESIGN §15, server/transport/http/csrf.ts). */
export function assertSameOriginForCookie(request: FastifyRequest, viaCookie: boolean, publicUrl: string | undefined): void {
  if (viaCookie && isCrossSiteCookieCall(request, publicUrl)) throw AppError.forbidden(CROSS_SITE_MESSAGE);
}

export function requireAdmin(deps: AppDeps) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const credential = adminCredentialOf(request);
    const token = credential?.token;
    const admin = await deps.adminAuth.verify(token);
    if (!admin) throw AppError.unauthorized(token ? 'Invalid or expired token' : 'Authentication required');
    assertSameOriginForCookie(request, credential!.viaCookie, deps.config.publicUrl);
    request.admin = admin;
    request.adminToken = token;
  };
}
