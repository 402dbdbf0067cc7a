import { parseInput, rotateKeysInput } from '#admin';
import type { SigningKeyInfo } from '#issuer';
import { attempt } from '../attempt.ts';
import { csrfField, when } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { dataTable, type TableRow } from '../html/table.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type SessionRequest, setNotice, takeNotice } from './common.ts';
import { sendSessionPage } from './session-page.ts';

const STATE_HELP: Readonly<Record<SigningKeyInfo['status'], string>> = {
  active: 'signs new tokens',
  next: 'published, signs after the next rotation',
  retired: 'verifies tokens it signed until they expire',
};

function keyRow(key: SigningKeyInfo): TableRow {
  const state = html`<span class="badge badge-key-${key.status}">${key.status}</span> <span class="hint">${STATE_HELP[key.status]}</span>`;
  return {
    header: html`<code>${key.kid}</code>`,
    cells: [
      key.alg,
      state,
      when(key.createdAt),
      when(key.promotableAt),
      when(key.activatedAt),
      when(key.retiredAt),
      when(key.removeAfter),
    ],
  };
}

async function keysPage(r: SessionRequest) {
  const keys = await r.app.service.listKeys(actor(r));
  const body = html`<h1>Signing keys</h1>
<p>The issuer signs access tokens with the active key. Gateways fetch the public keys from the key set.</p>
${dataTable('Current signing keys and their states', ['Key id', 'Algorithm', 'State', 'Created', 'May sign from', 'Activated', 'Retired', 'Leaves key set'], keys.map(keyRow))}
<section aria-labelledby="rotate"><h2 id="rotate">Rotate</h2>
<p>Rotation makes the next key active and retires the active one. Tokens already issued stay valid until they expire.
The next key may sign only once gateways have had time to fetch it (from <em>May sign from</em>); until then a rotation is refused.</p>
<form method="post" action="${r.app.base}/signing-keys/rotate">${csrfField(r.session)}<button type="submit">Rotate signing keys</button></form></section>
<section aria-labelledby="emergency"><h2 id="emergency">Emergency rotation</h2>
<p>Only if the active key may be compromised: the next key signs at once, whenever it was published, and gateways are told to fetch it through the revocation feed.</p>
<form method="post" action="${r.app.base}/signing-keys/rotate">${csrfField(r.session)}<input type="hidden" name="now" value="yes"><button type="submit" class="button-danger">Rotate now (emergency)</button></form></section>`;
  sendSessionPage(r, { title: 'Signing keys', section: 'signing-keys', notice: await takeNotice(r) }, body);
}

async function rotate(r: SessionRequest) {
  const emergency = r.form.get('now') === 'yes';
  const input = { now: emergency };
  const result = await attempt(() => r.app.service.rotateKeys(actor(r), parseInput(rotateKeysInput, input)));
  const done = emergency ? 'Signing keys rotated (emergency).' : 'Signing keys rotated.';
  await setNotice(r, result.ok ? `${done} Active key: ${result.value.kid}.` : `Rotation failed: ${result.message}`);
  redirect(r.res, `${r.app.base}/signing-keys`);
}

export const signingKeyRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/signing-keys', access: 'session', handle: keysPage },
  { method: 'POST', path: '/signing-keys/rotate', access: 'session', handle: rotate },
];
