import { clearedCookie, portalCookie, readCookie } from '../http/cookies.ts';
import { redirect } from '../http/respond.ts';
import type { RouteRequest } from '../routing.ts';
import { sameSecret } from './constant-time.ts';
import { CSRF_FIELD, sameOriginRequest } from './csrf.ts';
import { remoteAddress } from '#common';
import { SECOND_STEP_PATH } from '../pages/two-factor-paths.ts';
import { PENDING_SESSION_TTL_MS, randomToken, SESSION_COOKIE, type Session } from './sessions.ts';

/**
 * Signing in (or accepting an invitation) before there is a session: the form carries a nonce
 * that must equal the one in a short-lived SameSite=Strict cookie (double submit), so another
 * site cannot sign a browser in.
 */
const LOGIN_NONCE_COOKIE = 'tokengate_portal_login';
const LOGIN_NONCE_SECONDS = 30 * 60;

/** What randomToken() makes: 256 bits in base64url. */
const NONCE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

type AnyRequest = RouteRequest<Session | undefined>;

/**
 * The browser's current nonce when it has one, so every sign-in page open in its tabs posts
 * the same nonce (a fresh one per page made all but the last-opened tab fail with 403).
 */
export function loginNonce(r: AnyRequest): string {
  const current = readCookie(r.req, LOGIN_NONCE_COOKIE);
  return current !== undefined && NONCE_SHAPE.test(current) ? current : randomToken();
}

export function nonceCookie(r: AnyRequest, nonce: string): string {
  return portalCookie(r.req, r.app.base, LOGIN_NONCE_COOKIE, nonce, LOGIN_NONCE_SECONDS);
}

/** The form's nonce equals the cookie's, and the browser says the post is ours. */
export function validNonce(r: AnyRequest): boolean {
  const nonce = readCookie(r.req, LOGIN_NONCE_COOKIE);
  const given = r.form.get(CSRF_FIELD);
  return sameOriginRequest(r.req) && !!nonce && !!given && sameSecret(given, nonce);
}

/**
 * A fresh session (an id planted before sign-in is never promoted), its cookie, and on to the
 * projects; a pending one (password given, second factor not yet) goes on to the second step.
 */
export async function startSession(r: AnyRequest, userId: string | null, pending = false): Promise<void> {
  if (r.session) await r.app.sessions.end(r.session);
  const agent = r.req.headers['user-agent'];
  const session = await r.app.sessions.create(userId, {
    pending,
    userAgent: typeof agent === 'string' ? agent : undefined,
    address: remoteAddress(r.req),
  });
  const maxAge = Math.floor((pending ? PENDING_SESSION_TTL_MS : r.app.sessions.ttlMs) / 1000);
  redirect(r.res, `${r.app.base}${pending ? SECOND_STEP_PATH : '/projects'}`, {
    'set-cookie': [
      portalCookie(r.req, r.app.base, SESSION_COOKIE, session.id, maxAge),
      clearedCookie(r.req, r.app.base, LOGIN_NONCE_COOKIE),
    ],
  });
}
