import type { SigningKeyInfo } from '#issuer';
import { csrfField, when } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { page } from '../html/layout.ts';
import { redirect, sendPage } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { type SessionRequest, takeNotice } from './common.ts';

const STATE_HELP: Readonly<Record<SigningKeyInfo['status'], string>> = {
  active: 'signs new tokens',
  next: 'published, becomes active at the next rotation',
  retired: 'verifies tokens it signed until they expire',
};

function keyRow(key: SigningKeyInfo) {
  return html`<tr><th scope="row"><code>${key.kid}</code></th><td>${key.alg}</td>
<td><span class="badge badge-key-${key.status}">${key.status}</span> <span class="hint">${STATE_HELP[key.status]}</span></td>
<td>${when(key.createdAt)}</td><td>${when(key.activatedAt)}</td><td>${when(key.retiredAt)}</td><td>${when(key.removeAfter)}</td></tr>`;
}

async function keysPage(r: SessionRequest) {
  const keys = await r.app.ctx.issuer.listKeys();
  const body = html`<h1>Signing keys</h1>
<p>The issuer signs access tokens with the active key. Gateways fetch the public keys from the key set.</p>
<div class="table-wrap"><table><caption>Current signing keys and their states</caption>
<thead><tr><th scope="col">Key id</th><th scope="col">Algorithm</th><th scope="col">State</th><th scope="col">Created</th><th scope="col">Activated</th><th scope="col">Retired</th><th scope="col">Leaves key set</th></tr></thead>
<tbody>${keys.map(keyRow)}</tbody></table></div>
<section aria-labelledby="rotate"><h2 id="rotate">Rotate</h2>
<p>Rotation makes the next key active and retires the active one. Tokens already issued stay valid until they expire.</p>
<form method="post" action="/portal/signing-keys/rotate">${csrfField(r.session)}<button type="submit">Rotate signing keys</button></form></section>`;
  sendPage(r.res, 200, page({ title: 'Signing keys', session: r.session, section: 'signing-keys', notice: takeNotice(r.session) }, body));
}

async function rotate(r: SessionRequest) {
  const result = await r.app.ops('POST', '/keys/rotate');
  r.session.flash = result.ok ? `Signing keys rotated. Active key: ${(result.body as { kid: string }).kid}.` : `Rotation failed: ${result.message}`;
  redirect(r.res, '/portal/signing-keys');
}

export const signingKeyRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/portal/signing-keys', access: 'session', handle: keysPage },
  { method: 'POST', path: '/portal/signing-keys/rotate', access: 'session', handle: rotate },
];
