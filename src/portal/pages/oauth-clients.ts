import { createClientInput, parseInput } from '#admin';
import { planAllowsOAuth, SCOPES } from '#common';
import type { OAuthClient, Project } from '#store';
import { attempt } from '../attempt.ts';
import { csrfField, errorSummary, secretPanel, when } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { page } from '../html/layout.ts';
import { dataTable, type TableRow } from '../html/table.ts';
import { sendPage } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type Linked, freePlanMessage, loadProject, projectHref, type SessionRequest } from './common.ts';
import { credentialsCrumbs, credentialsHref, sendCredentials } from './credentials.ts';

const clientHref = (r: Linked, project: Project, client: OAuthClient) =>
  `${projectHref(r, project)}/oauth-clients/${encodeURIComponent(client.clientId)}`;

function clientRow(r: SessionRequest, project: Project, client: OAuthClient): TableRow {
  const action = client.enabled
    ? html`<a href="${clientHref(r, project, client)}/disable">Disable<span class="visually-hidden"> ${client.name}</span></a>`
    : html`<form method="post" action="${clientHref(r, project, client)}/enable">${csrfField(r.session)}<button type="submit" class="button-small">Enable<span class="visually-hidden"> ${client.name}</span></button></form>`;
  const state = client.enabled ? html`<span class="ok">Enabled</span>` : html`<span class="muted">Disabled</span>`;
  return {
    header: client.name,
    cells: [html`<code>${client.clientId}</code>`, client.scopes.join(', '), state, when(client.createdAt), action],
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
        ['Name', 'Client id', 'Scopes', 'Enabled', 'Created', 'Action'],
        clients.map((client) => clientRow(r, project, client)),
      )
    : html`<p>No OAuth 2.0 clients yet.</p>`;
  const content = html`<p>A client gets access tokens from the token endpoint with its client id and secret (client credentials).</p>
${table}
<p><a class="button" href="${credentialsHref(r, project, 'oauth-clients')}/new">Create new client</a></p>`;
  await sendCredentials(r, project, 'oauth-clients', content);
}

async function newClientForm(
  r: SessionRequest,
  project: Project,
  status = 200,
  error?: string,
  values: { name?: string; scopes?: string[] } = {},
) {
  const chosen = values.scopes ?? [];
  const boxes = SCOPES.map(
    (scope) =>
      html`<div class="check"><input type="checkbox" id="scope-${scope}" name="scopes" value="${scope}"${chosen.includes(scope) ? html` checked` : ''}><label for="scope-${scope}">${scope}</label></div>`,
  );
  const content = html`${errorSummary(error)}
<form method="post" action="${credentialsHref(r, project, 'oauth-clients')}" class="stack card">
${csrfField(r.session)}
<div class="field"><label for="client-name">Client name</label>
<input id="client-name" name="name" required maxlength="100" value="${values.name ?? ''}" aria-describedby="client-name-hint"><p class="hint" id="client-name-hint">For example the service or job that will call the API.</p></div>
<fieldset><legend>Scopes</legend><p class="hint">The APIs this client may get tokens for.</p>${boxes}</fieldset>
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
  const values = { name: r.form.get('name') ?? '', scopes: r.form.getAll('scopes').slice(0, 16) };
  const result = await attempt(() =>
    r.app.service.createClient(actor(r), project.id, parseInput(createClientInput, values)),
  );
  if (!result.ok) return newClientForm(r, project, result.status, friendly(result.message), values);
  const { client, clientSecret } = result.value;
  const body = html`<h1>Client created</h1>
<dl class="facts"><div><dt>Client name</dt><dd>${client.name}</dd></div>
<div><dt>Client id</dt><dd><code id="client-id">${client.clientId}</code></dd></div>
<div><dt>Scopes</dt><dd>${client.scopes.join(', ')}</dd></div></dl>
${clientSecret === null ? '' : secretPanel('client-secret', 'Client secret', clientSecret)}
<p><a class="button" href="${credentialsHref(r, project, 'oauth-clients')}">Done, back to OAuth 2.0 clients</a></p>`;
  const crumbs = credentialsCrumbs(
    r,
    project,
    { label: 'OAuth 2.0 clients', href: credentialsHref(r, project, 'oauth-clients') },
    { label: 'New client' },
  );
  sendPage(
    r.res,
    201,
    page({ app: r.app, title: 'Client created', session: r.session, section: 'projects', crumbs }, body),
  );
}

/** The admin API names JSON fields; a person sees the form's words. */
function friendly(message: string): string {
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
