import { parseInput, requireTwoFactorInput } from '#admin';
import type { Account } from '#store';
import { attempt } from '../attempt.ts';
import { csrfField } from '../html/components.ts';
import { type Html, html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type SessionRequest, setNotice } from './common.ts';

/** The account's rule on the People page: what it is, and for an owner the button that changes it. */
export async function twoFactorRule(r: SessionRequest, account: Account, owner: boolean): Promise<Html> {
  const { require2fa } = await r.app.service.getAccountRequire2fa(actor(r), account.id);
  const state = require2fa
    ? html`<p><strong>Two-factor authentication is required</strong> of every member of ${account.name}. Members without a second factor set one up at their next sign-in.</p>`
    : html`<p>Two-factor authentication is each member’s own choice in ${account.name}.</p>`;
  const change = owner
    ? html`<form method="post" action="${r.app.base}/accounts/${encodeURIComponent(account.id)}/require-2fa">${csrfField(r.session)}<input type="hidden" name="require_2fa" value="${require2fa ? 'false' : 'true'}"><button type="submit" class="${require2fa ? 'button-secondary' : ''}">${require2fa ? 'Stop requiring two-factor authentication' : 'Require two-factor authentication'}</button></form>`
    : '';
  return html`<div class="callout" role="note"><h3>Two-factor authentication</h3>${state}${change}</div>`;
}

async function setRule(r: SessionRequest) {
  const accountId = r.params['accountId'] ?? '';
  const result = await attempt(() =>
    r.app.service.setAccountRequire2fa(
      actor(r),
      accountId,
      parseInput(requireTwoFactorInput, { require_2fa: r.form.get('require_2fa') === 'true' }),
    ),
  );
  const done =
    result.ok && result.value.require2fa
      ? 'Two-factor authentication is now required of every member.'
      : 'Two-factor authentication is no longer required.';
  await setNotice(
    r,
    result.ok ? done : result.kind === 'not_found' ? 'That account is not one of yours.' : result.message,
  );
  redirect(r.res, `${r.app.base}/people`);
}

export const twoFactorRuleRoutes: readonly PortalRoute[] = [
  { method: 'POST', path: '/accounts/:accountId/require-2fa', access: 'session', handle: setRule },
];
