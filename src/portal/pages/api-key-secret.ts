import type { ApiKey, Project } from '#store';
import { attempt } from '../attempt.ts';
import { html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { apiKeyHref, keyFacts, loadApiKey } from './api-key-delete.ts';
import { actor, forbiddenPage, mayChange, notFoundPage, type SessionRequest, setNotice, takeNotice } from './common.ts';
import { credentialsCrumbs, credentialsHref } from './credentials.ts';
import { sendProjectPage } from './project-page.ts';
import { previousUntil, rotatedBody, rotationInput, secretSection } from './secret-rotation.ts';

/** The key's secret page: its state, and for whoever may change it the rotate form and retire button. */
export const apiKeySecretHref = (r: SessionRequest, project: Project, key: ApiKey) =>
  `${apiKeyHref(r, project, key)}/secret`;

const crumbsOf = (r: SessionRequest, project: Project, ...more: { label: string; href?: string }[]) =>
  credentialsCrumbs(r, project, { label: 'API keys', href: credentialsHref(r, project, 'api-keys') }, ...more);

async function secretPage(r: SessionRequest) {
  const found = await loadApiKey(r);
  if (!found) return;
  const { project, key } = found;
  const body = html`<h1>Secret of API key</h1>
<dl class="facts">${keyFacts(key)}<div><dt>State</dt><dd>${key.enabled ? 'Enabled' : 'Disabled'}</dd></div></dl>
${secretSection(r, {
  what: 'the key',
  action: apiKeySecretHref(r, project, key),
  until: previousUntil(r, key.previousSecret),
  mayChange: mayChange(r, project.accountId),
})}
<p><a href="${credentialsHref(r, project, 'api-keys')}">Back to API keys</a></p>`;
  const crumbs = crumbsOf(r, project, { label: 'Secret' });
  sendProjectPage(r, { title: `Secret of ${key.key}`, crumbs, notice: await takeNotice(r) }, body);
}

/** The new secret is in this POST's answer only (no-store); a reload lands on the secret page. */
async function rotate(r: SessionRequest) {
  const found = await loadApiKey(r);
  if (!found) return;
  const { project, key } = found;
  const result = await attempt(() => r.app.service.rotateApiKeySecret(actor(r), key.key, rotationInput(r)));
  if (!result.ok) return refused(r, project, key, result);
  const page = apiKeySecretHref(r, project, key);
  const body = rotatedBody({
    heading: 'New secret for the API key',
    facts: keyFacts(key),
    secret: result.value.secret,
    until: result.value.previousValidUntil,
    back: page,
    backLabel: 'Done, back to the key’s secret',
  });
  const crumbs = crumbsOf(r, project, { label: 'Secret', href: page }, { label: 'New secret' });
  sendProjectPage(r, { title: `New secret · ${key.key}`, crumbs }, body);
}

async function retire(r: SessionRequest) {
  const found = await loadApiKey(r);
  if (!found) return;
  const { project, key } = found;
  const result = await attempt(() => r.app.service.retireApiKeySecret(actor(r), key.key));
  if (!result.ok) return refused(r, project, key, result);
  await setNotice(r, `The previous secret of ${key.key} no longer works: only the current one does.`);
  redirect(r.res, apiKeySecretHref(r, project, key));
}

async function refused(r: SessionRequest, project: Project, key: ApiKey, result: { kind: string; message: string }) {
  if (result.kind === 'forbidden') return forbiddenPage(r, result.message);
  if (result.kind === 'not_found') return notFoundPage(r, 'That API key does not exist in this project.');
  await setNotice(r, `Could not change the key’s secret: ${result.message}`);
  redirect(r.res, apiKeySecretHref(r, project, key));
}

export const apiKeySecretRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/api-keys/:key/secret', access: 'session', handle: secretPage },
  // A reload of the page that showed the new secret (app.js made it a GET): the secret page.
  {
    method: 'GET',
    path: '/projects/:id/api-keys/:key/secret/rotate',
    access: 'session',
    handle: async (r) => {
      const found = await loadApiKey(r);
      if (found) redirect(r.res, apiKeySecretHref(r, found.project, found.key));
    },
  },
  { method: 'POST', path: '/projects/:id/api-keys/:key/secret/rotate', access: 'session', handle: rotate },
  { method: 'POST', path: '/projects/:id/api-keys/:key/secret/retire', access: 'session', handle: retire },
];
