import { parseInput, revokeTokenInput } from '#admin';
import { attempt } from '../attempt.ts';
import { csrfField, errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type SessionRequest, setNotice, takeNotice } from './common.ts';
import { sendSessionPage } from './session-page.ts';

/** The token given is never echoed back into the page (nor logged): only the outcome is. */
async function revokePage(r: SessionRequest, status = 200, error?: string) {
  const body = html`<div class="narrow"><h1>Revoke a token</h1>
<p>Revoking an access token makes every call with it fail with error 1024 (“OAuth key has been revoked”), on every gateway within a second. To stop a client getting new tokens, disable the client instead.</p>
${errorSummary(error)}
<form method="post" action="${r.app.base}/tokens/revoke" class="stack card">${csrfField(r.session)}
<div class="field"><label for="token">Access token (JWT) or token id (jti)</label>
<textarea id="token" name="token" rows="5" required maxlength="8192" autocomplete="off" spellcheck="false"${error ? html` aria-invalid="true" aria-describedby="form-error"` : ''}></textarea></div>
<button type="submit" class="button-danger">Revoke token</button></form></div>`;
  sendSessionPage(r, { title: 'Revoke a token', section: 'tokens', notice: await takeNotice(r), status }, body);
}

async function revoke(r: SessionRequest) {
  const input = { token: r.form.get('token') ?? '' };
  const result = await attempt(() => r.app.service.revokeToken(actor(r), parseInput(revokeTokenInput, input)));
  if (!result.ok) return revokePage(r, result.status, result.message.replace(/^token:/, 'Token:'));
  await setNotice(r, 'Token revoked.');
  redirect(r.res, `${r.app.base}/tokens/revoke`);
}

export const tokenRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/tokens/revoke', access: 'session', handle: (r) => revokePage(r) },
  { method: 'POST', path: '/tokens/revoke', access: 'session', handle: revoke },
];
