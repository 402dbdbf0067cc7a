import { FACTOR_LABEL_MAX_LENGTH } from '#admin';
import { attempt } from '../attempt.ts';
import { csrfField, errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { CREDENTIAL_FIELD, passkeyForm } from '../html/passkey-form.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type SessionRequest, setNotice, takeNotice } from './common.ts';
import { sendSessionPage } from './session-page.ts';
import { factorAdded, sentence } from './two-factor-setup.ts';
import { PASSKEY_SETUP_PATH, TWO_FACTOR_PATH } from './two-factor-paths.ts';

/** Adding a passkey: a name, then the browser's own dialog (the key, the phone, the fingerprint). */
async function setupPage(r: SessionRequest, status = 200, error?: string, label = '') {
  const options = await attempt(() => r.app.service.startPasskeySetup(actor(r)));
  if (!options.ok) {
    await setNotice(r, options.message);
    return redirect(r.res, `${r.app.base}${TWO_FACTOR_PATH}`);
  }
  const must = r.person?.mustEnrol
    ? html`<div class="callout" role="note"><h2>Your account requires two-factor authentication</h2>
<p>Add a passkey (or an authenticator app) to go on. Until you have, no other page of the portal opens.</p></div>`
    : '';
  const fields = html`<div class="field"><label for="passkey-label">Name of this passkey</label>
<input id="passkey-label" name="label" type="text" maxlength="${FACTOR_LABEL_MAX_LENGTH}" value="${label}" placeholder="Passkey" aria-describedby="passkey-label-hint">
<p class="hint" id="passkey-label-hint">So you can tell it from others later, for example “Laptop” or “Security key”.</p></div>`;
  const body = html`<div class="narrow"><h1>Add a passkey</h1>${must}
<p>A passkey is kept by your device, your password manager or a security key, and unlocked with your fingerprint, face, PIN or a touch. It is a second factor after your password, and it can also sign you in without the password.</p>
${errorSummary(error)}
${passkeyForm({ action: `${r.app.base}${PASSKEY_SETUP_PATH}`, mode: 'create', options: options.value, hidden: csrfField(r.session), fields, button: 'Add a passkey' })}
<p><a href="${r.app.base}${TWO_FACTOR_PATH}">Back to two-factor authentication</a></p></div>`;
  sendSessionPage(r, { title: 'Add a passkey', section: 'settings', status, notice: await takeNotice(r) }, body);
}

async function confirm(r: SessionRequest) {
  const label = r.form.get('label') ?? '';
  const result = await attempt(() =>
    r.app.service.confirmPasskeySetup(actor(r), { credential: r.form.get(CREDENTIAL_FIELD) ?? '', label }),
  );
  if (!result.ok) return setupPage(r, result.status, sentence(result.message.replace(/^credential: /, '')), label);
  await factorAdded(r, result.value.recoveryCodes, 'Passkey added.');
}

export const passkeySetupRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: PASSKEY_SETUP_PATH, access: 'session', beforeEnrolment: true, handle: (r) => setupPage(r) },
  { method: 'POST', path: PASSKEY_SETUP_PATH, access: 'session', beforeEnrolment: true, handle: confirm },
];
