import { remoteAddress } from '#common';
import { sameSecret } from '../auth/constant-time.ts';
import { CSRF_FIELD, sameOriginRequest } from '../auth/csrf.ts';
import { loginNonce, nonceCookie, startSession, validNonce } from '../auth/login-nonce.ts';
import { SESSION_COOKIE, type Session } from '../auth/sessions.ts';
import { errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { page } from '../html/layout.ts';
import { clearedCookie } from '../http/cookies.ts';
import { redirect, sendPage } from '../http/respond.ts';
import type { PortalRoute, RouteRequest } from '../routing.ts';

function loginPage(
  r: RouteRequest<Session | undefined>,
  status: number,
  error?: string,
  headers: Record<string, string> = {},
) {
  const nonce = loginNonce(r);
  const body = html`<div class="narrow">
<h1>Operator sign-in</h1>
<p>The console is for the operator. Sign in with the admin token (the <code>ADMIN_TOKEN</code> setting, or the file <code>admin-token</code> in the data directory).</p>
${errorSummary(error)}
<form method="post" action="${r.app.base}/login" class="stack">
<input type="hidden" name="${CSRF_FIELD}" value="${nonce}">
<div class="field">
<label for="admin-token">Admin token</label>
<input id="admin-token" name="admin_token" type="password" autocomplete="current-password" required${error ? html` aria-invalid="true" aria-describedby="form-error"` : ''}>
</div>
<button type="submit">Sign in</button>
</form>
</div>`;
  const cookie = nonceCookie(r, nonce);
  sendPage(r.res, status, page({ app: r.app, title: 'Operator sign-in' }, body), { ...headers, 'set-cookie': cookie });
}

async function signIn(r: RouteRequest<Session | undefined>): Promise<void> {
  if (!validNonce(r)) {
    // A sign-in page left open in another tab, posted after this browser signed in (the nonce
    // cookie is gone by then): the person is in already. A cross-site post carries no session
    // cookie (SameSite=Strict), so it still gets the 403.
    if (r.session && sameOriginRequest(r.req)) return redirect(r.res, `${r.app.base}/projects`);
    return loginPage(r, 403, 'The sign-in form expired or came from another site. Please sign in again.');
  }
  const token = r.form.get('admin_token') ?? '';
  // No length cap of its own: ADMIN_TOKEN may be of any length, the form's byte bound holds the
  // input, and sameSecret compares digests, so a long token costs one hash.
  if (token.length === 0 || !sameSecret(token, r.app.adminToken)) return failedSignIn(r);
  r.app.log.info('console: operator signed in');
  await startSession(r, null);
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

/** The operator's console: signed in with the admin token. */
export const consoleLoginRoutes: readonly PortalRoute[] = [
  {
    method: 'GET',
    path: '/login',
    access: 'public',
    handle: (r) => (r.session ? redirect(r.res, `${r.app.base}/projects`) : loginPage(r, 200)),
  },
  { method: 'POST', path: '/login', access: 'public', handle: signIn },
  {
    method: 'POST',
    path: '/logout',
    access: 'session',
    async handle(r) {
      await r.app.sessions.end(r.session);
      redirect(r.res, `${r.app.base}/login`, { 'set-cookie': clearedCookie(r.req, r.app.base, SESSION_COOKIE) });
    },
  },
];
