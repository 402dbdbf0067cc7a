import { remoteAddress } from '#common';
import { sameSecret } from '../auth/constant-time.ts';
import { CSRF_FIELD, sameOriginRequest } from '../auth/csrf.ts';
import { randomToken, SESSION_COOKIE, type Session } from '../auth/sessions.ts';
import { errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { page } from '../html/layout.ts';
import { clearedCookie, portalCookie, readCookie } from '../http/cookies.ts';
import { redirect, sendPage } from '../http/respond.ts';
import type { PortalRoute, RouteRequest } from '../routing.ts';

/**
 * Signing in before there is a session: the form carries a nonce that must equal the one in a
 * short-lived SameSite=Strict cookie (double submit), so another site cannot sign a browser in.
 */
const LOGIN_NONCE_COOKIE = 'tokengate_portal_login';
const LOGIN_NONCE_SECONDS = 30 * 60;

/** What randomToken() makes: 256 bits in base64url. */
const NONCE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The browser's current nonce when it has one, so every sign-in page open in its tabs posts
 * the same nonce (a fresh one per page made all but the last-opened tab fail with 403).
 */
function loginNonce(r: RouteRequest<Session | undefined>): string {
  const current = readCookie(r.req, LOGIN_NONCE_COOKIE);
  return current !== undefined && NONCE_SHAPE.test(current) ? current : randomToken();
}

function loginPage(
  r: RouteRequest<Session | undefined>,
  status: number,
  error?: string,
  headers: Record<string, string> = {},
) {
  const nonce = loginNonce(r);
  const body = html`<div class="narrow">
<h1>Sign in</h1>
<p>Sign in with the operator's admin token (the <code>ADMIN_TOKEN</code> setting, or the file <code>admin-token</code> in the data directory).</p>
${errorSummary(error)}
<form method="post" action="/portal/login" class="stack">
<input type="hidden" name="${CSRF_FIELD}" value="${nonce}">
<div class="field">
<label for="admin-token">Admin token</label>
<input id="admin-token" name="admin_token" type="password" autocomplete="current-password" required${error ? html` aria-invalid="true" aria-describedby="form-error"` : ''}>
</div>
<button type="submit">Sign in</button>
</form>
</div>`;
  const cookie = portalCookie(r.req, LOGIN_NONCE_COOKIE, nonce, LOGIN_NONCE_SECONDS);
  sendPage(r.res, status, page({ title: 'Sign in' }, body), { ...headers, 'set-cookie': cookie });
}

async function signIn(r: RouteRequest<Session | undefined>): Promise<void> {
  const nonce = readCookie(r.req, LOGIN_NONCE_COOKIE);
  const given = r.form.get(CSRF_FIELD);
  if (!sameOriginRequest(r.req) || !nonce || !given || !sameSecret(given, nonce)) {
    // A sign-in page left open in another tab, posted after this browser signed in (the nonce
    // cookie is gone by then): the person is in already. A cross-site post carries no session
    // cookie (SameSite=Strict), so it still gets the 403.
    if (r.session && sameOriginRequest(r.req)) return redirect(r.res, '/portal/projects');
    return loginPage(r, 403, 'The sign-in form expired or came from another site. Please sign in again.');
  }
  const token = r.form.get('admin_token') ?? '';
  // No length cap of its own: ADMIN_TOKEN may be of any length, the form's byte bound holds the
  // input, and sameSecret compares digests, so a long token costs one hash.
  if (token.length === 0 || !sameSecret(token, r.app.adminToken)) return failedSignIn(r);
  // A fresh id on every sign-in: an id planted before sign-in is never promoted.
  if (r.session) await r.app.sessions.end(r.session);
  const session = await r.app.sessions.create();
  r.app.log.info('portal: signed in');
  const maxAge = Math.floor(r.app.sessions.ttlMs / 1000);
  redirect(r.res, '/portal/projects', {
    'set-cookie': [portalCookie(r.req, SESSION_COOKIE, session.id, maxAge), clearedCookie(r.req, LOGIN_NONCE_COOKIE)],
  });
}

/**
 * Only a failed sign-in consults the per-address limit, as at the token endpoint: the correct
 * token always signs in. The address is often shared (every local user is 127.0.0.1; in compose
 * every host connection comes from the bridge gateway), and a limit checked first let anyone
 * there lock the operator out with five junk attempts. Whether a failure gets 429 or 401 depends
 * only on the address's failure count, never on the token given, so it tells nothing about the
 * token. It no longer caps how fast one address may guess, which no limit can without refusing
 * the correct token, and the admin API on this port takes the same token without one: the token
 * itself must be unguessable (256 random bits when generated).
 */
function failedSignIn(r: RouteRequest<Session | undefined>): void {
  const address = remoteAddress(r.req);
  const waitMs = r.app.limiter.retryAfterMs(address);
  r.app.limiter.recordFailure(address);
  r.app.log.warn({ address, throttled: waitMs > 0 }, 'portal: failed sign-in');
  if (waitMs === 0) {
    loginPage(r, 401, 'That admin token is not correct.');
    return;
  }
  const minutes = Math.ceil(waitMs / 60_000);
  loginPage(r, 429, `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    'retry-after': String(Math.ceil(waitMs / 1000)),
  });
}

export const loginRoutes: readonly PortalRoute[] = [
  {
    method: 'GET',
    path: '/portal/login',
    access: 'public',
    handle: (r) => (r.session ? redirect(r.res, '/portal/projects') : loginPage(r, 200)),
  },
  { method: 'POST', path: '/portal/login', access: 'public', handle: signIn },
  {
    method: 'POST',
    path: '/portal/logout',
    access: 'session',
    async handle(r) {
      await r.app.sessions.end(r.session);
      redirect(r.res, '/portal/login', { 'set-cookie': clearedCookie(r.req, SESSION_COOKIE) });
    },
  },
];
