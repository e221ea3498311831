import { navigate } from 'wouter/use-browser-location';
import { clearAdminLogin, getAdminToken } from './auth';

/**
 * The one HTTP client of the web app (SPEC §7/§8): bearer token when stored, cookies included,
 * a JSON body only when there is one, and every non-ok answer raised as `${status}: ${body}`.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'HttpError';
  }
}

// Admin calls answered 401 mean the stored token is gone or expired: back to the login screen.
// The login call itself answers 401 for wrong credentials, so it is left alone.
function isAdminCall(url: string): boolean {
  if (url.startsWith('/api/admin/login')) return false;
  return url.startsWith('/api/admin') || url.startsWith('/api/media');
}

function handleUnauthorized(): void {
  clearAdminLogin();
  if (window.location.pathname !== '/admin/login') navigate('/admin/login', { replace: true });
}

export interface RequestOptions {
  /** Give null instead of an error on 401 (SPEC §7: queries may be configured so). */
  on401?: 'throw' | 'returnNull';
  signal?: AbortSignal;
}

export async function apiRequest<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  const token = getAdminToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const hasBody = body !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';

  const response = await fetch(url, {
    method,
    headers,
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: 'include',
    signal: options.signal,
  });

  if (response.status === 401) {
    if (isAdminCall(url)) handleUnauthorized();
    if (options.on401 === 'returnNull') return null as T;
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new HttpError(response.status, text, response.statusText);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(url: string, options?: RequestOptions) => apiRequest<T>('GET', url, undefined, options),
  post: <T>(url: string, body?: unknown) => apiRequest<T>('POST', url, body),
  put: <T>(url: string, body?: unknown) => apiRequest<T>('PUT', url, body),
  patch: <T>(url: string, body?: unknown) => apiRequest<T>('PATCH', url, body),
  delete: <T>(url: string) => apiRequest<T>('DELETE', url),
};

/** The server's `{ message }` out of an error (DESIGN §2), or undefined when there is none. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof HttpError) || !error.bodyText) return undefined;
  try {
    const parsed = JSON.parse(error.bodyText) as { message?: unknown };
    return typeof parsed.message === 'string' && parsed.message ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}
