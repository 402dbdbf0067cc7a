import type { ApiKey, Project } from '#store';
import { attempt } from '../attempt.ts';
import { html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import {
  actor,
  forbiddenPage,
  type Linked,
  loadProject,
  notFoundPage,
  projectHref,
  type SessionRequest,
  setNotice,
} from './common.ts';
import { credentialsCrumbs, credentialsHref } from './credentials.ts';
import { sendConfirmation } from './project-page.ts';

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

async function confirmDelete(r: SessionRequest) {
  const found = await loadApiKey(r);
  if (!found) return;
  const { project, key } = found;
  const back = credentialsHref(r, project, 'api-keys');
  sendConfirmation(r, {
    title: 'Delete API key',
    heading: 'Delete this API key?',
    warning: html`<strong>Calls with this key and its secret are refused from the moment it is deleted.</strong> This cannot be undone: give the caller a new key first.`,
    facts: html`<div><dt>Key</dt><dd><code>${key.key}</code></dd></div>`,
    button: 'Delete API key',
    action: `${apiKeyHref(r, project, key)}/delete`,
    back,
    crumbs: credentialsCrumbs(r, project, { label: 'API keys', href: back }, { label: 'Delete API key' }),
  });
}

async function deleteKey(r: SessionRequest) {
  const found = await loadApiKey(r);
  if (!found) return;
  const result = await attempt(() => r.app.service.deleteApiKey(actor(r), found.key.key));
  if (!result.ok && result.kind === 'forbidden') return forbiddenPage(r, result.message);
  await setNotice(
    r,
    result.ok ? `API key ${found.key.key} deleted.` : `Could not delete the API key: ${result.message}`,
  );
  redirect(r.res, credentialsHref(r, found.project, 'api-keys'));
}

export const apiKeyDeleteRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/api-keys/:key/delete', access: 'session', handle: confirmDelete },
  { method: 'POST', path: '/projects/:id/api-keys/:key/delete', access: 'session', handle: deleteKey },
];
