import type { IncomingMessage } from 'node:http';

/** Reads one cookie's value from the Cookie header (first occurrence wins). */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string' || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** TLS on the socket, or a TLS-terminating proxy in front saying so. */
export function isSecureRequest(req: IncomingMessage): boolean {
  const socket = req.socket as { encrypted?: boolean };
  return socket.encrypted === true || String(req.headers['x-forwarded-proto'] ?? '').toLowerCase() === 'https';
}

/**
 * A portal cookie: HttpOnly (no script reads it), SameSite=Strict (never sent on a cross-site
 * request), scoped to its mount (`/portal` or `/console`: a session of one is never sent to the
 * other), Secure whenever the request came over TLS.
 */
export function portalCookie(
  req: IncomingMessage,
  base: string,
  name: string,
  value: string,
  maxAgeSeconds: number,
): string {
  const parts = [`${name}=${value}`, `Path=${base}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
  if (isSecureRequest(req)) parts.push('Secure');
  return parts.join('; ');
}

export function clearedCookie(req: IncomingMessage, base: string, name: string): string {
  return portalCookie(req, base, name, '', 0);
}
