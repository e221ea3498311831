import type { FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_COOKIE } from '../auth/admin-auth.js';
import type { Admin } from '../storage/admins.js';
import type { AppDeps } from './context.js';
import { AppError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    admin?: Admin;
    adminToken?: string;
  }
}

/** The admin token of a request: the bearer header first, then the session cookie. */
export function adminTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (match) return match[1];
  }
  return request.cookies?.[ADMIN_COOKIE] || undefined;
}

export function requireAdmin(deps: AppDeps) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = adminTokenOf(request);
    const admin = await deps.adminAuth.verify(token);
    if (!admin) throw AppError.unauthorized(token ? 'Invalid or expired token' : 'Authentication required');
    request.admin = admin;
    request.adminToken = token;
  };
}
