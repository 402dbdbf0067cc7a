import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#admin';
import { remoteAddress } from '#common';
import type { InvitationState, User } from '#store';
import { CSRF_FIELD } from '../auth/csrf.ts';
import { loginNonce, nonceCookie, startSession, validNonce } from '../auth/login-nonce.ts';
import type { Session } from '../auth/sessions.ts';
import { errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { page } from '../html/layout.ts';
import { sendPage } from '../http/respond.ts';
import type { PortalRoute, RouteRequest } from '../routing.ts';

type AnyRequest = RouteRequest<Session | undefined>;

/**
 * An invitation link is `/portal/invitation?token=…`: in the query, which the access log leaves
 * out, and posted back in the form's body, never in a path.
 */
function tokenOf(r: AnyRequest): string {
  return (r.form.get('token') ?? new URL(r.req.url ?? '/', 'http://x').searchParams.get('token') ?? '').slice(0, 64);
}

const GONE: Readonly<Record<Exclude<InvitationState['state'], 'valid'>, [number, string]>> = {
  unknown: [404, 'This invitation link is not valid. Check that you copied all of it.'],
  used: [410, 'This invitation has been used already. Sign in instead, or ask for a new invitation.'],
  expired: [410, 'This invitation has expired (links are valid for 72 hours). Ask for a new one.'],
};

function gonePage(r: AnyRequest, state: keyof typeof GONE): void {
  const [status, message] = GONE[state];
  const body = html`<div class="narrow"><h1>Invitation not usable</h1><p>${message}</p>
<p><a href="${r.app.base}/login">Go to sign-in</a></p></div>`;
  sendPage(r.res, status, page({ app: r.app, title: 'Invitation not usable' }, body));
}

function invitationPage(
  r: AnyRequest,
  invitation: { email: string; role: string },
  user: User | null,
  status = 200,
  error?: string,
): void {
  const nonce = loginNonce(r);
  const invalid = error ? html` aria-invalid="true" aria-describedby="form-error"` : '';
  const known = user?.passwordHash != null;
  const fields = known
    ? html`<p>You already have a sign-in. Enter your password to join the account.</p>
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX_LENGTH}"${invalid}></div>`
    : html`<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" aria-describedby="password-hint"${invalid}>
<p class="hint" id="password-hint">At least ${PASSWORD_MIN_LENGTH} characters. Common passwords and your email address are refused.</p></div>
<div class="field"><label for="confirm-password">Confirm password</label>
<input id="confirm-password" name="confirm_password" type="password" autocomplete="new-password" required maxlength="${PASSWORD_MAX_LENGTH}"${invalid}></div>`;
  const body = html`<div class="narrow">
<h1>Join your team on tokengate</h1>
<p>You are invited as <strong>${invitation.role}</strong> with the email <strong>${invitation.email}</strong>.</p>
${errorSummary(error)}
<form method="post" action="${r.app.base}/invitation" class="stack card">
<input type="hidden" name="${CSRF_FIELD}" value="${nonce}">
<input type="hidden" name="token" value="${tokenOf(r)}">
${fields}
<button type="submit">${known ? 'Join the account' : 'Set password and sign in'}</button>
</form></div>`;
  sendPage(r.res, status, page({ app: r.app, title: 'Accept invitation' }, body), {
    'set-cookie': nonceCookie(r, nonce),
  });
}

async function showInvitation(r: AnyRequest): Promise<void> {
  const found = await r.app.store.peekInvitation(tokenOf(r));
  if (found.state !== 'valid') return gonePage(r, found.state);
  invitationPage(r, found.invitation, found.user ?? null);
}

async function acceptInvitation(r: AnyRequest): Promise<void> {
  const token = tokenOf(r);
  const found = await r.app.store.peekInvitation(token);
  if (found.state !== 'valid') return gonePage(r, found.state);
  const { invitation } = found;
  const user = found.user ?? null;
  if (!validNonce(r))
    return invitationPage(r, invitation, user, 403, 'The form expired or came from another site. Please try again.');
  const input = {
    token,
    password: r.form.get('password') ?? '',
    confirm: r.form.get('confirm_password') ?? '',
    address: remoteAddress(r.req),
  };
  const accepted = await r.app.service.acceptInvitation(input, r.app.signInLimits);
  if (!accepted.ok) {
    // Unusable now: another tab or person used it between the two reads.
    if (accepted.error.kind === 'unusable') return gonePage(r, accepted.error.state);
    return invitationPage(r, invitation, user, accepted.error.status, accepted.error.message);
  }
  r.app.log.info(
    { userId: accepted.value.user.id, accountId: accepted.value.accountId },
    'portal: invitation accepted',
  );
  await startSession(r, accepted.value.user.id);
}

export const invitationRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/invitation', access: 'public', handle: showInvitation },
  { method: 'POST', path: '/invitation', access: 'public', handle: acceptInvitation },
];
