import { FACTOR_LABEL_MAX_LENGTH, RECOVERY_CODE_COUNT } from '#admin';
import { renderSVG } from 'uqr';
import { attempt } from '../attempt.ts';
import { csrfField, errorSummary } from '../html/components.ts';
import { Html, html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type SessionRequest, setNotice, takeNotice } from './common.ts';
import { sendSessionPage } from './session-page.ts';
import { PASSKEY_SETUP_PATH, TWO_FACTOR_PATH, TWO_FACTOR_SETUP_PATH } from './two-factor-paths.ts';

/** The QR code of the `otpauth://` URI, drawn here as SVG (no request leaves the page). */
function qrCode(uri: string): Html {
  // uqr draws only rect and path elements with fill attributes: no script, no style attribute.
  return new Html(renderSVG(uri, { border: 2, ecc: 'M' }));
}

/** A refusal's message as a sentence on the page: `that code …` → `That code ….` */
export const sentence = (message: string) => `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;

/** `ABCD EFGH …`: the key readable and typeable in groups of four. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

async function setupPage(r: SessionRequest, status = 200, error?: string, label = '') {
  const setup = await attempt(() => r.app.service.startTotpSetup(actor(r)));
  if (!setup.ok) {
    await setNotice(r, setup.message);
    return redirect(r.res, `${r.app.base}${TWO_FACTOR_PATH}`);
  }
  const { secret, uri } = setup.value;
  const must = r.person?.mustEnrol
    ? html`<div class="callout" role="note"><h2>Your account requires two-factor authentication</h2>
<p>Set up an authenticator app to go on, or <a href="${r.app.base}${PASSKEY_SETUP_PATH}">add a passkey instead</a>. Until you have, no other page of the portal opens.</p></div>`
    : '';
  const invalid = error ? html` aria-invalid="true" aria-describedby="form-error"` : '';
  const body = html`<div class="narrow"><h1>Set up an authenticator app</h1>${must}
<ol class="steps">
<li><h2>Scan this code</h2>
<p>Open an authenticator app (1Password, Google Authenticator, Authy, Microsoft Authenticator…) and scan it.</p>
<figure class="qr" role="img" aria-label="QR code of your authenticator key">${qrCode(uri)}</figure>
<p>Cannot scan it? Type this key into the app instead:</p>
<p><code id="totp-secret" class="totp-secret">${grouped(secret)}</code></p></li>
<li><h2>Type the code the app shows</h2>
${errorSummary(error)}
<form method="post" action="${r.app.base}${TWO_FACTOR_SETUP_PATH}" class="stack card">${csrfField(r.session)}
<div class="field"><label for="totp-code">Code from the app</label>
<input id="totp-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="12"${invalid}></div>
<div class="field"><label for="totp-label">Name of this factor</label>
<input id="totp-label" name="label" type="text" maxlength="${FACTOR_LABEL_MAX_LENGTH}" value="${label}" placeholder="Authenticator app" aria-describedby="totp-label-hint">
<p class="hint" id="totp-label-hint">So you can tell it from others later, for example “Phone”.</p></div>
<button type="submit">Turn on two-factor authentication</button></form></li>
</ol></div>`;
  sendSessionPage(
    r,
    { title: 'Set up an authenticator app', section: 'settings', status, notice: await takeNotice(r) },
    body,
  );
}

async function confirm(r: SessionRequest) {
  const label = r.form.get('label') ?? '';
  const result = await attempt(() =>
    r.app.service.confirmTotpSetup(actor(r), { code: r.form.get('code') ?? '', label }),
  );
  if (!result.ok) return setupPage(r, result.status, sentence(result.message.replace(/^code: /, '')), label);
  await factorAdded(r, result.value.recoveryCodes, 'Authenticator app added.');
}

/** A factor added: the first one's recovery codes, shown once, else back to the list with a notice. */
export async function factorAdded(r: SessionRequest, codes: readonly string[] | null, notice: string) {
  if (codes) return recoveryCodesPage(r, codes, 'Two-factor authentication is on');
  await setNotice(r, notice);
  redirect(r.res, `${r.app.base}${TWO_FACTOR_PATH}`);
}

/** The codes appear in this response only (no-store): the store keeps digests. */
export function recoveryCodesPage(r: SessionRequest, codes: readonly string[], title: string) {
  const body = html`<div class="narrow"><h1>${title}</h1>
<div class="secret-panel"><p class="warning"><strong>Save these ${RECOVERY_CODE_COUNT} recovery codes now.</strong> They are shown only once. If you lose your authenticator app, each code signs you in once instead of a code from the app.</p>
<ul class="recovery-codes" aria-label="Recovery codes">${codes.map((code) => html`<li><code>${code}</code></li>`)}</ul></div>
<p><a class="button" href="${r.app.base}${TWO_FACTOR_PATH}">I have saved them</a></p></div>`;
  sendSessionPage(r, { title, section: 'settings', status: 201 }, body);
}

export const twoFactorSetupRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: TWO_FACTOR_SETUP_PATH, access: 'session', beforeEnrolment: true, handle: (r) => setupPage(r) },
  { method: 'POST', path: TWO_FACTOR_SETUP_PATH, access: 'session', beforeEnrolment: true, handle: confirm },
];
