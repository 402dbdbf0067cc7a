import { checkPasskey, passkeyRequestOptions, readAuthenticationJson, recordSignIn } from '#admin';
import { remoteAddress } from '#common';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { loginNonce, nonceCookie, startSession, validNonce } from '../auth/login-nonce.ts';
import { passkeyDeps } from '../auth/passkeys.ts';
import type { Session } from '../auth/sessions.ts';
import { errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { page } from '../html/layout.ts';
import { CREDENTIAL_FIELD, passkeyForm } from '../html/passkey-form.ts';
import { redirect, sendPage } from '../http/respond.ts';
import type { PortalRoute, RouteRequest } from '../routing.ts';
import { PASSKEY_SIGN_IN_PATH } from './two-factor-paths.ts';

type AnyRequest = RouteRequest<Session | undefined>;

const NO_MATCH = 'That passkey did not sign you in. Try again, or sign in with your email and password.';

function tooMany(base: string, waitMs: number) {
  const minutes = Math.ceil(waitMs / 60_000);
  return html`<div class="narrow"><h1>Sign in with a passkey</h1>
${errorSummary(`Too many passkey sign-ins were started from your network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`)}
<p><a href="${base}/login">Sign in with your email and password instead</a></p></div>`;
}

/**
 * Signing in with a passkey alone: the browser offers the passkeys it keeps for this site
 * (discoverable credentials), and the one chosen names the person. The challenge is bound to
 * the sign-in form's nonce (the same double-submit cookie as the password form's).
 */
async function passkeyPage(r: AnyRequest, status: number, error?: string, headers: Record<string, string> = {}) {
  const nonce = loginNonce(r);
  const waitMs = r.app.signInLimits.takeChallenge(remoteAddress(r.req));
  if (waitMs > 0) {
    r.app.log.warn({ address: remoteAddress(r.req) }, 'portal: passkey sign-in page refused (too many challenges)');
    return sendPage(r.res, 429, page({ app: r.app, title: 'Sign in with a passkey' }, tooMany(r.app.base, waitMs)), {
      'retry-after': String(Math.ceil(waitMs / 1000)),
    });
  }
  const options = await passkeyRequestOptions(passkeyDeps(r.app), 'sign_in', nonce, null);
  const body = html`<div class="narrow">
<h1>Sign in with a passkey</h1>
<p>Use the passkey you added to your sign-in: your device, password manager or security key asks for your fingerprint, face, PIN or a touch.</p>
${errorSummary(error)}
${passkeyForm({ action: `${r.app.base}${PASSKEY_SIGN_IN_PATH}`, mode: 'get', options, hidden: html`<input type="hidden" name="${CSRF_FIELD}" value="${nonce}">`, button: 'Sign in with a passkey' })}
<p><a href="${r.app.base}/login">Sign in with your email and password instead</a></p>
</div>`;
  sendPage(r.res, status, page({ app: r.app, title: 'Sign in with a passkey' }, body), {
    ...headers,
    'set-cookie': nonceCookie(r, nonce),
  });
}

/** The person the passkey names, read before checking it, so that their limits apply as at the password step. */
async function namedPerson(r: AnyRequest, input: string) {
  const response = readAuthenticationJson(input);
  const key = response ? await r.app.store.findPasskey(response.id) : null;
  const user = key ? await r.app.store.getUser(key.userId) : null;
  const accounts = user ? (await r.app.store.listMemberships(user.id)).map((m) => m.accountId) : [];
  return { user, accounts };
}

/**
 * The sign-in limits apply: per address always, and per email and account once the passkey
 * names a person (an unknown passkey counts against the address alone). The log has the outcome.
 */
async function signIn(r: AnyRequest): Promise<void> {
  if (!validNonce(r))
    return passkeyPage(r, 403, 'The sign-in page expired or came from another site. Please try again.');
  const input = r.form.get(CREDENTIAL_FIELD) ?? '';
  const address = remoteAddress(r.req);
  const { user, accounts } = await namedPerson(r, input);
  const waitMs = r.app.signInLimits.retryAfterMs(address, user?.email ?? null, accounts);
  if (waitMs > 0) {
    r.app.log.warn({ address }, 'portal: passkey sign-in refused (too many failures)');
    const minutes = Math.ceil(waitMs / 60_000);
    return passkeyPage(r, 429, `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
      'retry-after': String(Math.ceil(waitMs / 1000)),
    });
  }
  const how = { purpose: 'sign_in' as const, binding: r.form.get(CSRF_FIELD) ?? '', userId: null };
  const passed = user ? await checkPasskey(passkeyDeps(r.app), how, input) : null;
  if (!user || passed?.userId !== user.id) {
    r.app.signInLimits.recordFailure(address, user?.email ?? null, accounts);
    r.app.log.warn({ address }, 'portal: failed passkey sign-in');
    if (user) await recordSignIn(r.app.store, user, accounts, false, address);
    return passkeyPage(r, 401, NO_MATCH);
  }
  r.app.log.info({ userId: user.id, factor: 'passkey' }, 'portal: signed in');
  await recordSignIn(r.app.store, user, accounts, true, address);
  await startSession(r, user.id);
}

export const passkeySignInRoutes: readonly PortalRoute[] = [
  {
    method: 'GET',
    path: PASSKEY_SIGN_IN_PATH,
    access: 'public',
    handle: (r) => (r.session ? redirect(r.res, `${r.app.base}/projects`) : passkeyPage(r, 200)),
  },
  { method: 'POST', path: PASSKEY_SIGN_IN_PATH, access: 'public', handle: signIn },
];
