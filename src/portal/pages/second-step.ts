import {
  CODE_MAX_LENGTH,
  checkPasskey,
  checkSecondFactor,
  passkeyRequestOptions,
  recordPersonAction,
  recordSignIn,
} from '#admin';
import { remoteAddress } from '#common';
import { sessionLabel } from '../actor.ts';
import { startSession } from '../auth/login-nonce.ts';
import { passkeyDeps } from '../auth/passkeys.ts';
import { SESSION_COOKIE, type Session } from '../auth/sessions.ts';
import { csrfField, errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { page } from '../html/layout.ts';
import { CREDENTIAL_FIELD, passkeyForm } from '../html/passkey-form.ts';
import { clearedCookie } from '../http/cookies.ts';
import { redirect, sendPage } from '../http/respond.ts';
import type { Person, PortalRoute, RouteRequest } from '../routing.ts';
import { SECOND_STEP_PATH } from './two-factor-paths.ts';

type PendingRequest = RouteRequest<Session>;

const NO_MATCH =
  'That code is not right, or was used already. Type the current code from your app, or an unused recovery code.';
const NO_PASSKEY = 'That passkey was not accepted. Try again, or type a code instead.';

/** The person's passkeys, offered first when they have some: a challenge bound to this pending session. */
async function passkeySection(r: PendingRequest, person: Person) {
  const deps = passkeyDeps(r.app);
  const options = await passkeyRequestOptions(deps, 'second_step', sessionLabel(r.session.id), person.id);
  return html`<section aria-labelledby="use-passkey"><h2 id="use-passkey">Use a passkey</h2>
${passkeyForm({ action: `${r.app.base}${SECOND_STEP_PATH}/passkey`, mode: 'get', options, hidden: csrfField(r.session), button: 'Use a passkey' })}
</section><h2>Or type a code</h2>`;
}

/** What the code field takes: an app's code only for a person who has an app. */
const CODE_HINT = {
  app: 'The 6-digit code your authenticator app shows now, or one of your recovery codes (each works once).',
  recovery: 'One of your recovery codes (each works once), if you cannot use your passkey.',
};

async function secondStepPage(r: PendingRequest, status: number, error?: string, headers: Record<string, string> = {}) {
  const invalid = error
    ? html` aria-invalid="true" aria-describedby="form-error code-hint"`
    : html` aria-describedby="code-hint"`;
  const person = r.person;
  const [apps, keys] = person
    ? await Promise.all([r.app.store.listTotpFactors(person.id), r.app.store.listPasskeys(person.id)])
    : [[], []];
  const hasApp = apps.length > 0 || keys.length === 0;
  const passkeys = person && keys.length > 0 ? await passkeySection(r, person) : '';
  const body = html`<div class="narrow">
<h1>Two-factor authentication</h1>
<p>Your password is right. Now prove it is you with your second factor.</p>
${errorSummary(error)}
${passkeys}
<form method="post" action="${r.app.base}${SECOND_STEP_PATH}" class="stack card">${csrfField(r.session)}
<div class="field"><label for="code">${hasApp ? 'Authentication code' : 'Recovery code'}</label>
<input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" required maxlength="${CODE_MAX_LENGTH}"${invalid}>
<p class="hint" id="code-hint">${hasApp ? CODE_HINT.app : CODE_HINT.recovery}</p></div>
<button type="submit">Verify</button>
</form>
<form method="post" action="${r.app.base}${SECOND_STEP_PATH}/cancel">${csrfField(r.session)}<button type="submit" class="button-secondary">Cancel and sign in again</button></form>
</div>`;
  sendPage(r.res, status, page({ app: r.app, title: 'Two-factor authentication' }, body), headers);
}

/**
 * The second step, by code or by passkey: the sign-in limits of the password step apply (per
 * address, per email, per account), counted together with its failures, so a stolen password
 * buys no more guesses. `check` says how the step was passed, or null.
 */
async function secondStep(r: PendingRequest, check: (person: Person) => Promise<string | null>, refusal: string) {
  const user = r.person;
  if (!user) return redirect(r.res, `${r.app.base}/login`);
  const address = remoteAddress(r.req);
  const accounts = Object.keys(user.roles);
  const waitMs = r.app.signInLimits.retryAfterMs(address, user.email, accounts);
  if (waitMs > 0) {
    r.app.log.warn({ address }, 'portal: second factor refused (too many failures)');
    const minutes = Math.ceil(waitMs / 60_000);
    return secondStepPage(
      r,
      429,
      `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      {
        'retry-after': String(Math.ceil(waitMs / 1000)),
      },
    );
  }
  const passed = await check(user);
  if (!passed) {
    r.app.signInLimits.recordFailure(address, user.email, accounts);
    r.app.log.warn({ address, userId: user.id }, 'portal: failed second factor');
    await recordSignIn(r.app.store, user, accounts, false, address);
    return secondStepPage(r, 401, refusal);
  }
  r.app.log.info({ userId: user.id, factor: passed }, 'portal: signed in');
  // A recovery code used up is worth its own line: the person has one fewer, and may have lost their factor.
  if (passed === 'recovery_code')
    await recordPersonAction(r.app.store, user, accounts, 'two_factor.recovery_code_used', address);
  await recordSignIn(r.app.store, user, accounts, true, address);
  await startSession(r, user.id);
}

const verifyCode = (r: PendingRequest) =>
  secondStep(r, (user) => checkSecondFactor(r.app.store, r.app.clock, user.id, r.form.get('code') ?? ''), NO_MATCH);

const verifyPasskey = (r: PendingRequest) =>
  secondStep(
    r,
    async (user) => {
      const how = { purpose: 'second_step' as const, binding: sessionLabel(r.session.id), userId: user.id };
      return (await checkPasskey(passkeyDeps(r.app), how, r.form.get(CREDENTIAL_FIELD) ?? '')) ? 'passkey' : null;
    },
    NO_PASSKEY,
  );

async function cancel(r: PendingRequest): Promise<void> {
  await r.app.sessions.end(r.session);
  redirect(r.res, `${r.app.base}/login`, { 'set-cookie': clearedCookie(r.req, r.app.base, SESSION_COOKIE) });
}

export const secondStepRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: SECOND_STEP_PATH, access: 'pending', handle: (r) => secondStepPage(r, 200) },
  { method: 'POST', path: SECOND_STEP_PATH, access: 'pending', handle: verifyCode },
  { method: 'POST', path: `${SECOND_STEP_PATH}/passkey`, access: 'pending', handle: verifyPasskey },
  { method: 'POST', path: `${SECOND_STEP_PATH}/cancel`, access: 'pending', handle: cancel },
];
