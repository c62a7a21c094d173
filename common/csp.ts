/**
 * The one Content-Security-Policy of Keel's page, wherever it is served from: the meta tag in
 * renderer/index.html, the `keel web` host and the window's `keel://app` scheme. Only where the
 * page may connect differs (a loopback WebSocket for `keel web`, nothing but itself in the window).
 */
export interface CspOptions {
  /** Sources besides 'self' the page may connect to. */
  connect: readonly string[];
  /** A meta tag may not carry frame-ancestors (browsers ignore it there and warn). */
  meta?: boolean;
}

export function contentSecurityPolicy({ connect, meta = false }: CspOptions): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connect].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    ...(meta ? [] : ["frame-ancestors 'none'"]),
    "form-action 'none'",
  ].join('; ');
}

/** What renderer/index.html's meta tag says (it must be static: a test compares the two). */
export const META_CSP = contentSecurityPolicy({ connect: ['ws://127.0.0.1:*', 'ws://localhost:*'], meta: true });
