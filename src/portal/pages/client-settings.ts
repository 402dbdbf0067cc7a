import { parseInput, setClientDpopInput, setClientKeysInput } from '#admin';
import type { OAuthClient, Project } from '#store';
import { type Attempt, attempt } from '../attempt.ts';
import { csrfField, errorSummary, when } from '../html/components.ts';
import { type Html, html } from '../html/escape.ts';
import { dataTable } from '../html/table.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { clientSecretSection } from './client-secret.ts';
import { clientHref, loadClient } from './client-state.ts';
import { actor, forbiddenPage, mayChange, notFoundPage, type SessionRequest, setNotice, takeNotice } from './common.ts';
import { credentialsCrumbs, credentialsHref } from './credentials.ts';
import { sendProjectPage } from './project-page.ts';

export const clientSettingsHref = clientHref;

/** What the keys form held when it was refused: shown again with the reason, so nothing pasted is lost. */
interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly jwks: string;
}

/** The algorithms a key of each type may sign with (the admin input and the token endpoint pin the same). */
const ALGORITHMS: Record<string, string> = { RSA: 'RS256 or PS256', EC: 'ES256', OKP: 'EdDSA' };

/** A stored public key in a person's words: `RSA, 2048 bits`, `EC P-256`, `OKP Ed25519`. */
function keyType(key: Record<string, unknown>): string {
  const kty = String(key['kty'] ?? '');
  if (kty === 'RSA' && typeof key['n'] === 'string') return `RSA, ${Math.floor((key['n'].length * 6) / 8) * 8} bits`;
  return typeof key['crv'] === 'string' ? `${kty} ${key['crv']}` : kty;
}

function keysTable(client: OAuthClient): Html {
  const rows = (client.jwks?.keys ?? []).map((key) => ({
    header: html`<code>${String(key['kid'] ?? '')}</code>`,
    cells: [keyType(key), String(key['alg'] ?? ALGORITHMS[String(key['kty'])] ?? '')],
  }));
  return dataTable(`Public keys of ${client.name}`, ['Key id (kid)', 'Type', 'Signs with'], rows);
}

function keysSection(r: SessionRequest, project: Project, client: OAuthClient, refusal?: Refusal): Html {
  if (!client.jwks)
    return html`<section class="stack" aria-labelledby="keys-heading"><h2 id="keys-heading">Authentication</h2>
<p>This client proves itself with its client secret: it has no public keys. A client registered with public keys (private_key_jwt) can have them replaced here.</p></section>`;
  const form = mayChange(r, project.accountId)
    ? html`<form method="post" action="${clientSettingsHref(r, project, client)}/keys" class="stack card">
${csrfField(r.session)}${refusal ? errorSummary(refusal.message) : ''}
<div class="field"><label for="client-jwks">New public keys (JWK set)</label>
<textarea id="client-jwks" name="jwks" rows="8" required spellcheck="false" aria-describedby="client-jwks-hint${refusal ? ' form-error' : ''}"${refusal ? html` aria-invalid="true"` : ''}>${refusal?.jwks ?? ''}</textarea>
<p class="hint" id="client-jwks-hint">Paste the whole set {"keys": [...]}: it replaces the keys above at once. To rotate without a gap, paste the old and the new key together, move the client to the new key, then paste the new key alone. Public keys only: never paste a private key.</p></div>
<div class="actions"><button type="submit">Replace public keys</button></div>
</form>`
    : '';
  return html`<section class="stack" aria-labelledby="keys-heading"><h2 id="keys-heading">Public keys</h2>
<p>The client signs its token requests with a private key (private_key_jwt). An assertion is accepted when its <code>kid</code> names a key of this set; one signed by a key removed from it is refused (<code>invalid_client</code>) from the moment the set is replaced.</p>
${keysTable(client)}
${form}</section>`;
}

function dpopSection(r: SessionRequest, project: Project, client: OAuthClient): Html {
  const state = client.requireDpop
    ? html`<p><strong>DPoP required.</strong> Every token request of this client must carry a DPoP proof, so each of its tokens is bound to a key the client holds; a request without a proof is refused (<code>invalid_dpop_proof</code>).</p>`
    : html`<p><strong>Bearer tokens allowed.</strong> The client may send a DPoP proof to get a key-bound token, or none and get a bearer token that works for whoever holds it.</p>`;
  const button = client.requireDpop
    ? html`<input type="hidden" name="required" value="0"><button type="submit" class="button-secondary">Allow bearer tokens again</button>`
    : html`<input type="hidden" name="required" value="1"><button type="submit">Require DPoP</button>`;
  const form = mayChange(r, project.accountId)
    ? html`<form method="post" action="${clientSettingsHref(r, project, client)}/dpop" class="actions">${csrfField(r.session)}${button}</form>
<p class="hint">${client.requireDpop ? 'Tokens already issued keep working until they expire.' : 'Applies to the next token request: make sure the client sends DPoP proofs first. Tokens already issued keep working until they expire.'}</p>`
    : '';
  return html`<section class="stack" aria-labelledby="dpop-heading"><h2 id="dpop-heading">DPoP</h2>
${state}
${form}</section>`;
}

async function sendSettings(r: SessionRequest, project: Project, client: OAuthClient, refusal?: Refusal) {
  const back = credentialsHref(r, project, 'oauth-clients');
  const method = client.jwks ? 'Private key (private_key_jwt)' : 'Client secret';
  const body = html`<h1>${client.name} <span class="subtitle">OAuth 2.0 client</span></h1>
<dl class="facts"><div><dt>Client id</dt><dd><code>${client.clientId}</code></dd></div>
<div><dt>Scopes</dt><dd>${client.scopes.join(', ')}</dd></div>
<div><dt>Authentication</dt><dd>${method}</dd></div>
<div><dt>DPoP</dt><dd>${client.requireDpop ? 'Required' : 'Not required'}</dd></div>
<div><dt>State</dt><dd>${client.enabled ? 'Enabled' : 'Disabled'}</dd></div>
<div><dt>Created</dt><dd>${when(client.createdAt)}</dd></div></dl>
${mayChange(r, project.accountId) ? '' : html`<p class="hint">Your role in this account (viewer) lets you see this client, not change it.</p>`}
${keysSection(r, project, client, refusal)}
${clientSecretSection(r, project, client)}
${dpopSection(r, project, client)}
<p><a href="${back}">Back to OAuth 2.0 clients</a></p>`;
  const crumbs = credentialsCrumbs(r, project, { label: 'OAuth 2.0 clients', href: back }, { label: client.name });
  const notice = refusal ? undefined : await takeNotice(r);
  sendProjectPage(
    r,
    { title: `${client.name} · ${project.name}`, crumbs, notice, status: refusal?.status ?? 200 },
    body,
  );
}

async function settingsPage(r: SessionRequest) {
  const found = await loadClient(r);
  if (found) await sendSettings(r, found.project, found.client);
}

/**
 * The pasted text as the admin service's input: text that is not JSON is named as such here
 * (the schema would only restate the rule); everything else is the schema's, as at creation.
 */
function pastedKeySet(text: string): { ok: true; json: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: 'Public keys: paste the JWK set {"keys": [...]}.' };
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch {
    return { ok: false, message: 'Public keys: the text is not JSON. Paste the JWK set as JSON: {"keys": [...]}.' };
  }
}

/** A refusal of the service in the form's words; true when a page was sent for it already (403, 404). */
function refusedPage(r: SessionRequest, result: Attempt<unknown> & { ok: false }): boolean {
  if (result.kind === 'forbidden') forbiddenPage(r, result.message);
  else if (result.kind === 'not_found') notFoundPage(r, 'That OAuth 2.0 client does not exist in this project.');
  else return false;
  return true;
}

/** Replaces the key set through the admin service (which logs it and serves it to every replica at once). */
async function replaceKeys(r: SessionRequest) {
  const found = await loadClient(r);
  if (!found) return;
  const { project, client } = found;
  if (!mayChange(r, project.accountId))
    return forbiddenPage(r, 'Your role in this account (viewer) may look but not change anything.');
  const text = r.form.get('jwks') ?? '';
  const pasted = pastedKeySet(text);
  if (!pasted.ok) return sendSettings(r, project, client, { status: 400, message: pasted.message, jwks: text });
  const result = await attempt(() =>
    r.app.service.setClientKeys(actor(r), client.clientId, parseInput(setClientKeysInput, { jwks: pasted.json })),
  );
  if (!result.ok) {
    if (refusedPage(r, result)) return;
    const message = result.message.replace(/^jwks:/, 'Public keys:');
    return sendSettings(r, project, client, { status: result.status, message, jwks: text });
  }
  const count = result.value.jwks?.keys.length ?? 0;
  await setNotice(r, `Public keys of “${client.name}” replaced: ${count === 1 ? 'one key' : `${count} keys`} now.`);
  redirect(r.res, clientSettingsHref(r, project, client));
}

async function setDpop(r: SessionRequest) {
  const found = await loadClient(r);
  if (!found) return;
  const { project, client } = found;
  if (!mayChange(r, project.accountId))
    return forbiddenPage(r, 'Your role in this account (viewer) may look but not change anything.');
  const posted = r.form.get('required');
  const required = posted === '1' ? true : posted === '0' ? false : undefined;
  const result = await attempt(() =>
    r.app.service.setClientDpop(actor(r), client.clientId, parseInput(setClientDpopInput, { required })),
  );
  if (!result.ok && refusedPage(r, result)) return;
  await setNotice(
    r,
    result.ok
      ? result.value.requireDpop
        ? `“${client.name}” now needs DPoP: its token requests without a proof are refused.`
        : `“${client.name}” may get bearer tokens again.`
      : `Could not change DPoP for the client: ${result.message}`,
  );
  redirect(r.res, clientSettingsHref(r, project, client));
}

export const clientSettingsRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/oauth-clients/:clientId', access: 'session', handle: settingsPage },
  { method: 'POST', path: '/projects/:id/oauth-clients/:clientId/keys', access: 'session', handle: replaceKeys },
  { method: 'POST', path: '/projects/:id/oauth-clients/:clientId/dpop', access: 'session', handle: setDpop },
];
