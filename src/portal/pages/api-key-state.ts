import { attempt } from '../attempt.ts';
import { html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { loadApiKey } from './api-key-delete.ts';
import { actor, forbiddenPage, type SessionRequest, setNotice } from './common.ts';
import { credentialsCrumbs, credentialsHref } from './credentials.ts';
import { sendConfirmation } from './project-page.ts';

async function confirmDisable(r: SessionRequest) {
  const found = await loadApiKey(r);
  if (!found) return;
  const { project, key } = found;
  const back = credentialsHref(r, project, 'api-keys');
  sendConfirmation(r, {
    title: 'Disable API key',
    heading: 'Disable this API key?',
    warning: html`<strong>Calls with this key and its secret are refused from the moment it is disabled</strong> (error 1001, as for a key that does not exist), until you enable it again. The key and its secret stay as they are.`,
    facts: html`<div><dt>Key</dt><dd><code>${key.key}</code></dd></div>`,
    button: 'Disable API key',
    action: r.req.url?.split('?', 1)[0] ?? '',
    back,
    crumbs: credentialsCrumbs(r, project, { label: 'API keys', href: back }, { label: 'Disable API key' }),
  });
}

function setEnabled(enabled: boolean) {
  return async (r: SessionRequest) => {
    const found = await loadApiKey(r);
    if (!found) return;
    const { key } = found.key;
    const result = await attempt(() => r.app.service.setApiKeyEnabled(actor(r), key, enabled));
    if (!result.ok && result.kind === 'forbidden') return forbiddenPage(r, result.message);
    await setNotice(
      r,
      result.ok
        ? `API key ${key} ${enabled ? 'enabled' : 'disabled; its calls are refused until you enable it'}.`
        : `Could not ${enabled ? 'enable' : 'disable'} the API key: ${result.message}`,
    );
    redirect(r.res, credentialsHref(r, found.project, 'api-keys'));
  };
}

export const apiKeyStateRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/api-keys/:key/disable', access: 'session', handle: confirmDisable },
  { method: 'POST', path: '/projects/:id/api-keys/:key/disable', access: 'session', handle: setEnabled(false) },
  { method: 'POST', path: '/projects/:id/api-keys/:key/enable', access: 'session', handle: setEnabled(true) },
];
