import type { SecondFactor } from '#store';
import { attempt } from '../attempt.ts';
import { csrfField, when } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { dataTable, type TableRow } from '../html/table.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type SessionRequest, setNotice, takeNotice } from './common.ts';
import { sendSessionPage } from './session-page.ts';
import { recoveryCodesPage } from './two-factor-setup.ts';
import { PASSKEY_SETUP_PATH, TWO_FACTOR_PATH, TWO_FACTOR_SETUP_PATH } from './two-factor-paths.ts';

function factorRow(r: SessionRequest, factor: SecondFactor, removable: boolean): TableRow {
  const remove = removable
    ? html`<form method="post" action="${r.app.base}${TWO_FACTOR_PATH}/${encodeURIComponent(factor.id)}/remove" class="inline">${csrfField(r.session)}<button type="submit" class="button-small button-danger">Remove<span class="visually-hidden"> ${factor.label}</span></button></form>`
    : html`<span class="muted">Your only factor: add another to remove it</span>`;
  return {
    header: factor.label,
    cells: [
      factor.kind === 'passkey' ? 'Passkey' : 'Authenticator app',
      when(factor.createdAt),
      when(factor.lastUsedAt),
      remove,
    ],
  };
}

/** The person's factors, with removing one and renewing the recovery codes. */
async function factorsPage(r: SessionRequest) {
  const own = await r.app.service.listOwnFactors(actor(r));
  const { factors, recoveryCodesLeft, required } = own;
  const removable = !(required && factors.length === 1);
  const rule = required
    ? html`<p class="callout" role="note">An account you belong to requires two-factor authentication: you keep at least one factor.</p>`
    : '';
  const list = factors.length
    ? dataTable(
        'Your second factors',
        ['Name', 'Kind', 'Added', 'Last used', 'Action'],
        factors.map((factor) => factorRow(r, factor, removable)),
      )
    : html`<p>Two-factor authentication is off: you sign in with your password alone.</p>`;
  const codes = factors.length
    ? html`<section aria-labelledby="recovery"><h2 id="recovery">Recovery codes</h2>
<p>${recoveryCodesLeft} of 10 recovery codes unused. Each signs you in once when you do not have your app or passkey.</p>
<form method="post" action="${r.app.base}${TWO_FACTOR_PATH}/recovery-codes">${csrfField(r.session)}<button type="submit" class="button-secondary">Make new recovery codes</button></form>
<p class="hint">The earlier codes stop working.</p></section>`
    : '';
  const body = html`<h1>Two-factor authentication</h1>${rule}${list}
<p class="actions"><a class="button" href="${r.app.base}${TWO_FACTOR_SETUP_PATH}">Add an authenticator app</a> <a class="button button-secondary" href="${r.app.base}${PASSKEY_SETUP_PATH}">Add a passkey</a></p>${codes}`;
  sendSessionPage(
    r,
    {
      title: 'Two-factor authentication',
      section: 'settings',
      notice: await takeNotice(r),
      crumbs: [{ label: 'Your sign-in', href: `${r.app.base}/settings` }, { label: 'Two-factor authentication' }],
    },
    body,
  );
}

async function removeFactor(r: SessionRequest) {
  const result = await attempt(() => r.app.service.removeOwnFactor(actor(r), r.params['factorId'] ?? ''));
  await setNotice(
    r,
    result.ok ? 'Factor removed.' : result.kind === 'not_found' ? 'That factor is gone already.' : result.message,
  );
  redirect(r.res, `${r.app.base}${TWO_FACTOR_PATH}`);
}

async function renewCodes(r: SessionRequest) {
  const result = await attempt(() => r.app.service.renewRecoveryCodes(actor(r)));
  if (!result.ok) {
    await setNotice(r, result.message);
    return redirect(r.res, `${r.app.base}${TWO_FACTOR_PATH}`);
  }
  recoveryCodesPage(r, result.value, 'New recovery codes');
}

export const twoFactorRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: TWO_FACTOR_PATH, access: 'session', handle: factorsPage },
  { method: 'POST', path: `${TWO_FACTOR_PATH}/recovery-codes`, access: 'session', handle: renewCodes },
  { method: 'POST', path: `${TWO_FACTOR_PATH}/:factorId/remove`, access: 'session', handle: removeFactor },
];
