import type { ApiKey, Project } from '#store';
import { attempt } from '../attempt.ts';
import { csrfField, secretPanel, when } from '../html/components.ts';
import { type Html, html } from '../html/escape.ts';
import { dataTable } from '../html/table.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, mayChange, loadProject, type SessionRequest, setNotice } from './common.ts';
import { sendProjectPage } from './project-page.ts';
import { apiKeyHref } from './api-key-delete.ts';
import { credentialsCrumbs, credentialsHref, sendCredentials } from './credentials.ts';
import { previousUntil } from './secret-rotation.ts';

/** Disable (asked first) or enable, and delete; a viewer sees the keys only. */
function keyActions(r: SessionRequest, project: Project, key: ApiKey): Html {
  const href = apiKeyHref(r, project, key);
  const secret = html`<a href="${href}/secret">Secret<span class="visually-hidden"> of ${key.key}</span></a>`;
  if (!mayChange(r, project.accountId))
    return html`<span class="row-actions">${secret} <span class="muted">View only</span></span>`;
  const toggle = key.enabled
    ? html`<a href="${href}/disable">Disable<span class="visually-hidden"> ${key.key}</span></a>`
    : html`<form method="post" action="${href}/enable" class="inline">${csrfField(r.session)}<button type="submit" class="button-small">Enable<span class="visually-hidden"> ${key.key}</span></button></form>`;
  return html`<span class="row-actions">${secret} ${toggle} <a href="${href}/delete">Delete<span class="visually-hidden"> ${key.key}</span></a></span>`;
}

/** Until when the secret before the last rotation still works, or none. */
function previousCell(r: SessionRequest, key: ApiKey): Html | string {
  const until = previousUntil(r, key.previousSecret);
  return until === null ? html`<span class="muted">None</span>` : html`Works until ${when(until)}`;
}

/** `status`: a refused creation shows the tab again with the refusal's status (403 for a viewer). */
async function apiKeysTab(r: SessionRequest, status = 200) {
  const project = await loadProject(r);
  if (!project) return;
  const keys = await r.app.service.listApiKeys(actor(r), project.id);
  const rows = keys.map((key) => ({
    header: html`<code>${key.key}</code>`,
    cells: [
      key.enabled ? html`<span class="ok">Enabled</span>` : html`<span class="muted">Disabled</span>`,
      when(key.createdAt),
      previousCell(r, key),
      keyActions(r, project, key),
    ],
  }));
  const content = html`<p>An API key and its secret authenticate calls with the <code>key</code> and <code>secret</code> parameters. Every plan may hold API keys.</p>
${keys.length ? dataTable(`API keys of ${project.name}`, ['Key', 'Enabled', 'Created', 'Previous secret', 'Action'], rows) : html`<p>No API keys yet.</p>`}
${
  mayChange(r, project.accountId)
    ? html`<form method="post" action="${credentialsHref(r, project, 'api-keys')}/api-keys">${csrfField(r.session)}<button type="submit">Create API key</button></form>`
    : html`<p class="hint">Your role in this account (viewer) lets you see API keys, not create, disable or delete them.</p>`
}`;
  await sendCredentials(r, project, 'api-keys', content, status);
}

/** The secret is in this POST response only (no-store); nothing redirects with it. */
async function createApiKey(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  const result = await attempt(() => r.app.service.createApiKey(actor(r), project.id));
  if (!result.ok) {
    await setNotice(r, result.message);
    return apiKeysTab(r, result.status);
  }
  const created = result.value;
  const body = html`<h1>API key created</h1>
<dl class="facts"><div><dt>Key</dt><dd><code id="api-key">${created.apiKey.key}</code></dd></div></dl>
${secretPanel('api-secret', 'Secret', created.secret)}
<p><a class="button" href="${credentialsHref(r, project, 'api-keys')}">Done, back to API keys</a></p>`;
  const crumbs = credentialsCrumbs(
    r,
    project,
    { label: 'API keys', href: credentialsHref(r, project, 'api-keys') },
    { label: 'API key created' },
  );
  sendProjectPage(r, { title: 'API key created', crumbs, status: 201 }, body);
}

export const apiKeyRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/credentials', access: 'session', handle: (r) => apiKeysTab(r) },
  // Where the create form posts: a reload of the page that showed the new key lands here (app.js).
  { method: 'GET', path: '/projects/:id/credentials/api-keys', access: 'session', handle: (r) => apiKeysTab(r) },
  { method: 'POST', path: '/projects/:id/credentials/api-keys', access: 'session', handle: createApiKey },
];
