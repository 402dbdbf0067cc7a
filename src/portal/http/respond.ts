import type { ServerResponse } from 'node:http';
import type { Html } from '../html/escape.ts';

/**
 * Headers of every portal response. The CSP allows only our own stylesheet and script (no
 * inline code), forms may post only to us, and no page may be framed.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
};

/** Pages are never cached: they show account data, and one of them shows a secret once. */
export function sendPage(
  res: ServerResponse,
  status: number,
  page: Html,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body = Buffer.from(page.value, 'utf8');
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...headers,
    'cache-control': 'no-store',
    'content-type': 'text/html; charset=utf-8',
    'content-length': body.length,
  });
  res.end(body);
}

/** 303 See Other: a POST is never replayed, and the target URL never carries a secret. */
export function redirect(
  res: ServerResponse,
  location: string,
  headers: Readonly<Record<string, string | string[]>> = {},
): void {
  res.writeHead(303, { ...SECURITY_HEADERS, ...headers, location, 'cache-control': 'no-store', 'content-length': 0 });
  res.end();
}
