/**
 * The Content-Security-Policy of the web app's pages (docs/WEB.md, "Content-Security-Policy").
 *
 * Scripts, styles, fonts and frames come from this origin only; media and images from this
 * origin or the configured S3 bucket; the page talks (fetch, XHR, WebSocket) to this origin and,
 * for direct uploads, to the bucket. The one allowance: style elements carrying the page's
 * nonce, which Radix's dialogs insert to lock page scroll (web/main.tsx hands them the nonce).
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { bucketUrlOf } from '../../domain/media/s3-store.js';

/** Vite writes this placeholder into index.html (vite.config.ts `html.cspNonce`); each page load gets a fresh nonce. */
export const CSP_NONCE_PLACEHOLDER = 'MARQUEE_CSP_NONCE';

export function newCspNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The bucket's origin when uploads and media may go to S3 directly, else null. */
export function s3OriginOf(config: Pick<Config, 's3'>): string | null {
  return config.s3 ? new URL(bucketUrlOf(config.s3)).origin : null;
}

/**
 * `host` is the Host the browser used: older Safari did not count ws: and wss: as 'self', so the
 * socket's origin is named as well.
 */
export function contentSecurityPolicy(options: { nonce: string; host: string; s3Origin: string | null }): string {
  const s3 = options.s3Origin ? ` ${options.s3Origin}` : '';
  // A Host that is not a plain host[:port] (it is the client's own header) is left out, not quoted.
  const sockets = /^[\w.-]+(:\d+)?$|^\[[\da-f:.]+\](:\d+)?$/i.test(options.host) ? ` ws://${options.host} wss://${options.host}` : '';
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${options.nonce}'`,
    // data: for the favicon inlined in index.html; blob: for previews of files chosen for upload.
    `img-src 'self' data: blob:${s3}`,
    `media-src 'self' blob:${s3}`,
    `connect-src 'self'${sockets}${s3}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ];
  return directives.join('; ');
}
