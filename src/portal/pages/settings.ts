import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#admin';
import { csrfField, errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { clearedCookie } from '../http/cookies.ts';
import { redirect } from '../http/respond.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type SessionRequest, setNotice, takeNotice } from './common.ts';
import { sessionsSection } from './sessions.ts';
import { sendSessionPage } from './session-page.ts';

/** The person's own sign-in: change the password, sign out of every session. */
async function settingsPage(r: SessionRequest, status = 200, error?: string) {
  const invalid = error ? html` aria-invalid="true" aria-describedby="form-error"` : '';
  const body = html`<div class="narrow"><h1>Your sign-in</h1>
<p>Signed in as <strong>${r.person?.email ?? ''}</strong>.</p>
<section aria-labelledby="change-password"><h2 id="change-password">Change password</h2>
${errorSummary(error)}
<form method="post" action="${r.app.base}/settings/password" class="stack card">${csrfField(r.session)}
<div class="field"><label for="current-password">Current password</label>
<input id="current-password" name="current_password" type="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX_LENGTH}"${invalid}></div>
<div class="field"><label for="new-password">New password</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" aria-describedby="new-password-hint"${invalid}>
<p class="hint" id="new-password-hint">At least ${PASSWORD_MIN_LENGTH} characters. Your other sessions are signed out.</p></div>
<div class="field"><label for="confirm-password">Confirm password</label>
<input id="confirm-password" name="confirm_password" type="password" autocomplete="new-password" required maxlength="${PASSWORD_MAX_LENGTH}"${invalid}></div>
<button type="submit">Change password</button></form></section>
<section aria-labelledby="two-factor"><h2 id="two-factor">Two-factor authentication</h2>
<p>A code from an authenticator app, or a passkey, at each sign-in after your password. A passkey can also sign you in on its own.</p>
<p><a href="${r.app.base}/settings/two-factor">Manage two-factor authentication</a></p></section></div>
${await sessionsSection(r)}
<section aria-labelledby="everywhere"><h2 id="everywhere">Sign out everywhere</h2>
<p>Ends every session of yours, on every device, this one included.</p>
<form method="post" action="${r.app.base}/settings/sign-out-everywhere">${csrfField(r.session)}<button type="submit" class="button-danger">Sign out everywhere</button></form></section>`;
  sendSessionPage(r, { title: 'Your sign-in', section: 'settings', notice: await takeNotice(r), status }, body);
}

async function changePassword(r: SessionRequest) {
  if (!r.person) return redirect(r.res, `${r.app.base}/login`);
  const changed = await r.app.service.changeOwnPassword(actor(r), {
    current: r.form.get('current_password') ?? '',
    password: r.form.get('password') ?? '',
    confirm: r.form.get('confirm_password') ?? '',
  });
  if (!changed.ok) {
    if (changed.error.kind === 'no_person') return redirect(r.res, `${r.app.base}/login`);
    return settingsPage(r, changed.error.status, changed.error.message);
  }
  // Whoever knew the old password is out, wherever they were signed in.
  const ended = await r.app.sessions.endOthers(r.session);
  r.app.log.info({ userId: changed.value.userId, endedSessions: ended }, 'portal: password changed');
  await setNotice(r, 'Password changed. Your other sessions are signed out.');
  redirect(r.res, `${r.app.base}/settings`);
}

async function signOutEverywhere(r: SessionRequest) {
  const ended = await r.app.sessions.endOthers(r.session);
  await r.app.sessions.end(r.session);
  r.app.log.info({ userId: r.person?.id, endedSessions: ended + 1 }, 'portal: signed out everywhere');
  redirect(r.res, `${r.app.base}/login`, { 'set-cookie': clearedCookie(r.req, r.app.base, SESSION_COOKIE) });
}

export const settingsRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/settings', access: 'session', handle: (r) => settingsPage(r) },
  { method: 'POST', path: '/settings/password', access: 'session', handle: changePassword },
  { method: 'POST', path: '/settings/sign-out-everywhere', access: 'session', handle: signOutEverywhere },
];
