import { createClientInput, parseInput } from '#admin';
import { planAllowsOAuth, planScopes } from '#common';
import type { OAuthClient, Project } from '#store';
import { attempt } from '../attempt.ts';
import { csrfField, errorSummary, secretPanel, when } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { dataTable, type TableRow } from '../html/table.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, mayChange, freePlanMessage, loadProject, type SessionRequest } from './common.ts';
import { clientSettingsHref } from './client-settings.ts';
import { credentialsCrumbs, credentialsHref, sendCredentials } from './credentials.ts';
import { sendProjectPage } from './project-page.ts';
import { previousUntil } from './secret-rotation.ts';

const clientHref = clientSettingsHref;

function clientRow(r: SessionRequest, project: Project, client: OAuthClient): TableRow {
  const toggle = client.enabled
    ? html`<a href="${clientHref(r, project, client)}/disable">Disable<span class="visually-hidden"> ${client.name}</span></a>`
    : html`<form method="post" action="${clientHref(r, project, client)}/enable" class="inline">${csrfField(r.session)}<button type="submit" class="button-small">Enable<span class="visually-hidden"> ${client.name}</span></button></form>`;
  const settings = html`<a href="${clientHref(r, project, client)}">Settings<span class="visually-hidden"> of ${client.name}</span></a>`;
  const action = mayChange(r, project.accountId)
    ? html`<span class="row-actions">${settings} ${toggle} <a href="${clientHref(r, project, client)}/delete">Delete<span class="visually-hidden"> ${client.name}</span></a></span>`
    : html`<span class="row-actions"><a href="${clientHref(r, project, client)}">View<span class="visually-hidden"> ${client.name}</span></a> <span class="muted">View only</span></span>`;
  const state = client.enabled ? html`<span class="ok">Enabled</span>` : html`<span class="muted">Disabled</span>`;
  const method = `${client.jwks ? 'Private key (private_key_jwt)' : 'Client secret'}${client.requireDpop ? ', DPoP required' : ''}`;
  const until = previousUntil(r, client.previousSecret);
  const authentication = until === null ? method : html`${method}; previous secret works until ${when(until)}`;
  return {
    header: client.name,
    cells: [
      html`<code>${client.clientId}</code>`,
      client.scopes.join(', '),
      authentication,
      state,
      when(client.createdAt),
      action,
    ],
  };
}

async function clientsTab(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  if (!planAllowsOAuth(project.plan)) return sendCredentials(r, project, 'oauth-clients', freePlanMessage(project));
  const clients = await r.app.service.listClients(actor(r), project.id);
  const table = clients.length
    ? dataTable(
        `OAuth 2.0 clients of ${project.name}`,
        ['Name', 'Client id', 'Scopes', 'Authentication', 'Enabled', 'Created', 'Action'],
        clients.map((client) => clientRow(r, project, client)),
      )
    : html`<p>No OAuth 2.0 clients yet.</p>`;
  const content = html`<p>A client gets access tokens from the token endpoint with its client id and secret (client credentials), or with an assertion signed by its private key when you register its public keys instead.</p>
${table}
${
  mayChange(r, project.accountId)
    ? html`<p><a class="button" href="${credentialsHref(r, project, 'oauth-clients')}/new">Create new client</a></p>`
    : html`<p class="hint">Your role in this account (viewer) lets you see clients, not create or disable them.</p>`
}`;
  await sendCredentials(r, project, 'oauth-clients', content);
}

async function newClientForm(
  r: SessionRequest,
  project: Project,
  status = 200,
  error?: string,
  values: { name?: string; scopes?: string[]; auth?: string; jwks?: string; dpop?: boolean } = {},
) {
  const keys = values.auth === 'private_key_jwt';
  const chosen = values.scopes ?? [];
  const boxes = planScopes(project.plan).map(
    (scope) =>
      html`<div class="check"><input type="checkbox" id="scope-${scope}" name="scopes" value="${scope}"${chosen.includes(scope) ? html` checked` : ''}><label for="scope-${scope}">${scope}</label></div>`,
  );
  const content = html`${errorSummary(error)}
<form method="post" action="${credentialsHref(r, project, 'oauth-clients')}" class="stack card">
${csrfField(r.session)}
<div class="field"><label for="client-name">Client name</label>
<input id="client-name" name="name" required maxlength="100" value="${values.name ?? ''}" aria-describedby="client-name-hint"><p class="hint" id="client-name-hint">For example the service or job that will call the API.</p></div>
<fieldset><legend>Scopes</legend><p class="hint">The APIs this client may get tokens for (those the ${project.plan} plan offers).</p>${boxes}</fieldset>
<fieldset><legend>Authentication</legend>
<div class="check"><input type="radio" id="auth-secret" name="auth" value="client_secret"${keys ? '' : html` checked`}><label for="auth-secret">Client secret (shown once)</label></div>
<div class="check"><input type="radio" id="auth-keys" name="auth" value="private_key_jwt"${keys ? html` checked` : ''}><label for="auth-keys">Public keys (private_key_jwt): no secret</label></div>
<div class="field"><label for="client-jwks">Public keys (JWK set)</label>
<textarea id="client-jwks" name="jwks" rows="6" aria-describedby="client-jwks-hint">${values.jwks ?? ''}</textarea><p class="hint" id="client-jwks-hint">For public keys only: paste the JWK set {"keys": [...]} whose private keys sign the client's assertions. Never paste a private key.</p></div>
<div class="check"><input type="checkbox" id="client-dpop" name="require_dpop" value="1"${values.dpop ? html` checked` : ''}><label for="client-dpop">Require DPoP (every token bound to a key the client holds)</label></div>
</fieldset>
<div class="actions"><button type="submit">Create client</button> <a href="${credentialsHref(r, project, 'oauth-clients')}">Cancel</a></div>
</form>`;
  await sendCredentials(r, project, 'oauth-clients', html`<h3>Create new client</h3>${content}`, status, 'New client');
}

async function newClientPage(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  if (!planAllowsOAuth(project.plan))
    return sendCredentials(r, project, 'oauth-clients', freePlanMessage(project), 409);
  await newClientForm(r, project);
}

/** Creates through the admin service; the secret appears in this response only. */
async function createClient(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  const values = {
    name: r.form.get('name') ?? '',
    scopes: r.form.getAll('scopes').slice(0, 16),
    auth: r.form.get('auth') ?? 'client_secret',
    jwks: r.form.get('jwks') ?? '',
    dpop: r.form.get('require_dpop') === '1',
  };
  const refused = beyondPlan(project, values.scopes);
  if (refused) return newClientForm(r, project, 400, refused, { ...values, scopes: [] });
  const result = await attempt(() =>
    r.app.service.createClient(actor(r), project.id, parseInput(createClientInput, clientInput(values))),
  );
  if (!result.ok) return newClientForm(r, project, result.status, friendly(result.message), values);
  const { client, clientSecret } = result.value;
  const body = html`<h1>Client created</h1>
<dl class="facts"><div><dt>Client name</dt><dd>${client.name}</dd></div>
<div><dt>Client id</dt><dd><code id="client-id">${client.clientId}</code></dd></div>
<div><dt>Scopes</dt><dd>${client.scopes.join(', ')}</dd></div></dl>
${clientSecret === null ? html`<p id="client-keys-note">This client signs its token requests with its private key: it has no secret.</p>` : secretPanel('client-secret', 'Client secret', clientSecret)}
<p><a class="button" href="${credentialsHref(r, project, 'oauth-clients')}">Done, back to OAuth 2.0 clients</a></p>`;
  const crumbs = credentialsCrumbs(
    r,
    project,
    { label: 'OAuth 2.0 clients', href: credentialsHref(r, project, 'oauth-clients') },
    { label: 'Client created' },
  );
  sendProjectPage(r, { title: 'Client created', crumbs, status: 201 }, body);
}

/**
 * The form offers only the plan's scopes; a posted scope beyond them (a forged or stale form) is
 * named, cut to a readable length, with the ones the plan offers. A plan without clients is the
 * admin service's refusal (409), not a scope's.
 */
function beyondPlan(project: Project, scopes: readonly string[]): string | undefined {
  const offered: readonly string[] = planScopes(project.plan);
  if (offered.length === 0) return undefined;
  const beyond = scopes.find((scope) => !offered.includes(scope));
  if (beyond === undefined) return undefined;
  return `The scope “${beyond.slice(0, 32)}” is not one the ${project.plan} plan offers. Choose from ${offered.join(', ')}.`;
}

/** The form as the admin service's input: the pasted key set is JSON (text that is not stays a string, and is refused). */
function clientInput(values: { name: string; scopes: string[]; auth: string; jwks: string; dpop: boolean }) {
  const keys = values.auth === 'private_key_jwt';
  let jwks: unknown = values.jwks;
  try {
    jwks = JSON.parse(values.jwks);
  } catch {
    // Left as text: the schema refuses it with the rule for a key set.
  }
  return {
    name: values.name,
    scopes: values.scopes,
    ...(keys ? { auth: 'private_key_jwt', jwks } : {}),
    ...(values.dpop ? { require_dpop: true } : {}),
  };
}

/** The admin API names JSON fields; a person sees the form's words. */
function friendly(message: string): string {
  if (message.startsWith('jwks:')) return message.replace(/^jwks:/, 'Public keys:');
  if (message.startsWith('scopes:')) return 'Select at least one scope.';
  if (message.startsWith('name: required')) return 'Enter a client name.';
  return message.replace(/^name:/, 'Client name:');
}

export const clientRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/credentials/oauth-clients', access: 'session', handle: clientsTab },
  {
    method: 'GET',
    path: '/projects/:id/credentials/oauth-clients/new',
    access: 'session',
    handle: newClientPage,
  },
  { method: 'POST', path: '/projects/:id/credentials/oauth-clients', access: 'session', handle: createClient },
];
