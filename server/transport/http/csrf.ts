import type { FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The CSRF rule of DESIGN §15: an admin call authenticated by the cookie (the browser attaches it
 * to requests other pages make too) with an unsafe method must come from our own origin. A page on
 * another port of the same host counts as "same-site" for SameSite=Lax, so the cookie alone does
 * not stop it: the browser's `Sec-Fetch-Site: same-origin`, or an `Origin` whose host is the one
 * this request was sent to (or PUBLIC_URL's), is what proves it. Bearer calls carry no ambient
 * credential and are not subject to it.
 *
 * The host, not the scheme, is compared: behind a TLS proxy without TRUST_PROXY the server sees
 * http while the browser's Origin says https, and the port of the origin is part of the host.
 */
export function isCrossSiteCookieCall(request: FastifyRequest, publicUrl: string | undefined): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers['sec-fetch-site'] === 'same-origin') return false;
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  if (originHost === request.host.toLowerCase()) return false;
  return !(publicUrl && originOrNull(publicUrl) === originOrNull(origin));
}

function originOrNull(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export const CROSS_SITE_MESSAGE = 'Cross-site request refused: this call needs the same origin as the admin page';
