import type { IncomingMessage } from 'node:http';
import { isSecureRequest } from '../http/cookies.ts';
import { sameSecret } from './constant-time.ts';

export const CSRF_FIELD = 'csrf_token';

/**
 * A state-changing request must come from our own pages: when the browser says where it
 * came from (`Sec-Fetch-Site`, `Origin`), that must be us. Non-browser callers send neither
 * and are held to the synchronizer token alone. Our `Referrer-Policy: no-referrer` makes
 * browsers send `Origin: null` on our own form posts, so "null" says nothing either way:
 * `Sec-Fetch-Site` (sent by every current browser) is what decides then.
 */
export function sameOriginRequest(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return true;
  const host = req.headers.host;
  if (typeof host !== 'string') return false;
  return origin === `${isSecureRequest(req) ? 'https' : 'http'}://${host}`;
}

/** The form's token equals the session's, compared in constant time. */
export function validCsrfToken(form: URLSearchParams, expected: string): boolean {
  const given = form.get(CSRF_FIELD);
  return typeof given === 'string' && given.length > 0 && given.length <= 128 && sameSecret(given, expected);
}
