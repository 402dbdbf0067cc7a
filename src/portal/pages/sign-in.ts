import { normalEmail, PASSWORD_MAX_LENGTH, recordSignIn, verifyPassword } from '#admin';
import { remoteAddress } from '#common';
import { CSRF_FIELD, sameOriginRequest } from '../auth/csrf.ts';
import { loginNonce, nonceCookie, startSession, validNonce } from '../auth/login-nonce.ts';
import { SESSION_COOKIE, type Session } from '../auth/sessions.ts';
import { errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { page } from '../html/layout.ts';
import { clearedCookie } from '../http/cookies.ts';
import { redirect, sendPage } from '../http/respond.ts';
import type { PortalRoute, RouteRequest } from '../routing.ts';
import { PASSKEY_SIGN_IN_PATH } from './two-factor-paths.ts';

type AnyRequest = RouteRequest<Session | undefined>;

/** One message for an unknown email and a wrong password: the answer never tells which. */
const NO_MATCH = 'That email and password do not match. Check both and try again.';

function signInPage(r: AnyRequest, status: number, error?: string, email = '', headers: Record<string, string> = {}) {
  const nonce = loginNonce(r);
  const invalid = error ? html` aria-invalid="true" aria-describedby="form-error"` : '';
  const body = html`<div class="narrow">
<h1>Sign in</h1>
<p>Sign in to manage your account's projects, API keys and OAuth 2.0 clients.</p>
${errorSummary(error)}
<form method="post" action="${r.app.base}/login" class="stack card">
<input type="hidden" name="${CSRF_FIELD}" value="${nonce}">
<div class="field"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${email}"${invalid}></div>
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX_LENGTH}"${invalid}></div>
<button type="submit">Sign in</button>
</form>
<p><a class="button button-secondary" href="${r.app.base}${PASSKEY_SIGN_IN_PATH}">Sign in with a passkey</a></p>
<p class="hint">No account yet? The person who runs your account sends you an invitation link.</p>
</div>`;
  sendPage(r.res, status, page({ app: r.app, title: 'Sign in' }, body), {
    ...headers,
    'set-cookie': nonceCookie(r, nonce),
  });
}

/**
 * Email and password. While a limit is reached (per address, per email, per account of the
 * email) the password is not checked at all; an unknown email costs the same scrypt as a known
 * one and gets the same answer.
 */
async function signIn(r: AnyRequest): Promise<void> {
  if (!validNonce(r)) {
    if (r.session && sameOriginRequest(r.req)) return redirect(r.res, `${r.app.base}/projects`);
    return signInPage(r, 403, 'The sign-in form expired or came from another site. Please sign in again.');
  }
  const email = normalEmail(r.form.get('email') ?? '').slice(0, 254);
  const password = r.form.get('password') ?? '';
  const address = remoteAddress(r.req);
  const user = email ? await r.app.store.findUserByEmail(email) : null;
  const accounts = user ? (await r.app.store.listMemberships(user.id)).map((m) => m.accountId) : [];
  const waitMs = r.app.signInLimits.retryAfterMs(address, email, accounts);
  if (waitMs > 0) {
    r.app.log.warn({ address }, 'portal: sign-in refused (too many failures)');
    const minutes = Math.ceil(waitMs / 60_000);
    return signInPage(
      r,
      429,
      `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      email,
      { 'retry-after': String(Math.ceil(waitMs / 1000)) },
    );
  }
  if (!(await verifyPassword(password, user?.passwordHash ?? null)) || !user) {
    r.app.signInLimits.recordFailure(address, email, accounts);
    // Neither the email nor whether it exists goes to the log: only the address.
    r.app.log.warn({ address }, 'portal: failed sign-in');
    // Not awaited: a known email's failure must answer as fast as an unknown one's.
    if (user)
      void recordSignIn(r.app.store, user, accounts, false, address).catch((error: unknown) =>
        r.app.log.error({ err: error, address }, 'portal: failed sign-in not written to the activity log'),
      );
    return signInPage(r, 401, NO_MATCH, email);
  }
  // With a second factor, the sign-in goes on to its step; the log has its outcome.
  if ((await r.app.store.secondFactorState(user.id)).factors > 0) return startSession(r, user.id, true);
  r.app.log.info({ userId: user.id }, 'portal: signed in');
  await recordSignIn(r.app.store, user, accounts, true, address);
  await startSession(r, user.id);
}

async function signOut(r: RouteRequest<Session>): Promise<void> {
  await r.app.sessions.end(r.session);
  redirect(r.res, `${r.app.base}/login`, { 'set-cookie': clearedCookie(r.req, r.app.base, SESSION_COOKIE) });
}

export const signInRoutes: readonly PortalRoute[] = [
  {
    method: 'GET',
    path: '/login',
    access: 'public',
    handle: (r) => (r.session ? redirect(r.res, `${r.app.base}/projects`) : signInPage(r, 200)),
  },
  { method: 'POST', path: '/login', access: 'public', handle: signIn },
  { method: 'POST', path: '/logout', access: 'session', beforeEnrolment: true, handle: signOut },
];
