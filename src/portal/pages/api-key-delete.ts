import type { ApiKey, Project } from '#store';
import { html } from '../html/escape.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type Linked, loadProject, notFoundPage, projectHref, type SessionRequest } from './common.ts';
import { actStep, type Credential, confirmStep } from './credential-action.ts';

export const apiKeyHref = (r: Linked, project: Project, key: ApiKey) =>
  `${projectHref(r, project)}/api-keys/${encodeURIComponent(key.key)}`;

/** The key named in the path, only if it belongs to the project in the path (else the 404 page). */
export async function loadApiKey(r: SessionRequest): Promise<{ project: Project; key: ApiKey } | undefined> {
  const project = await loadProject(r);
  if (!project) return undefined;
  const wanted = r.params['key'] ?? '';
  const key = (await r.app.service.listApiKeys(actor(r), project.id)).find((k) => k.key === wanted);
  if (!key) {
    notFoundPage(r, 'That API key does not exist in this project.');
    return undefined;
  }
  return { project, key };
}

export const apiKeyCredential: Credential<{ project: Project; key: ApiKey }> = {
  load: loadApiKey,
  tab: 'api-keys',
  list: 'API keys',
};

/** What a confirmation shows of the key it acts on. */
export const keyFacts = (key: ApiKey) => html`<div><dt>Key</dt><dd><code>${key.key}</code></dd></div>`;

const confirmDelete = confirmStep(apiKeyCredential, ({ key }) => ({
  title: 'Delete API key',
  heading: 'Delete this API key?',
  warning: html`<strong>Calls with this key and its secret are refused from the moment it is deleted.</strong> This cannot be undone: give the caller a new key first.`,
  facts: keyFacts(key),
  button: 'Delete API key',
  step: 'Delete API key',
}));

const deleteKey = actStep(
  apiKeyCredential,
  (r, { key }) => r.app.service.deleteApiKey(actor(r), key.key),
  ({ key }) => ({ done: `API key ${key.key} deleted.`, failed: 'Could not delete the API key' }),
);

export const apiKeyDeleteRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/api-keys/:key/delete', access: 'session', handle: confirmDelete },
  { method: 'POST', path: '/projects/:id/api-keys/:key/delete', access: 'session', handle: deleteKey },
];
