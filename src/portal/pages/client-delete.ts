import { attempt } from '../attempt.ts';
import { html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { loadClient } from './client-state.ts';
import { actor, forbiddenPage, type SessionRequest, setNotice } from './common.ts';
import { sendConfirmation } from './project-page.ts';
import { credentialsCrumbs, credentialsHref } from './credentials.ts';

async function confirmDelete(r: SessionRequest) {
  const found = await loadClient(r);
  if (!found) return;
  const { project, client } = found;
  const back = credentialsHref(r, project, 'oauth-clients');
  sendConfirmation(r, {
    title: `Delete ${client.name}`,
    heading: `Delete “${client.name}”?`,
    warning: html`<strong>Deleting revokes every outstanding access token of this client and removes it.</strong> Calls with its tokens are refused at once (error 1024) and the token endpoint no longer knows it (<code>invalid_client</code>). This cannot be undone: to stop it for a while, disable it instead.`,
    facts: html`<div><dt>Client id</dt><dd><code>${client.clientId}</code></dd></div>`,
    button: 'Delete client and revoke its tokens',
    action: r.req.url?.split('?', 1)[0] ?? '',
    back,
    crumbs: credentialsCrumbs(r, project, { label: 'OAuth 2.0 clients', href: back }, { label: 'Delete client' }),
  });
}

async function deleteClient(r: SessionRequest) {
  const found = await loadClient(r);
  if (!found) return;
  const result = await attempt(() => r.app.service.deleteClient(actor(r), found.client.clientId));
  if (!result.ok && result.kind === 'forbidden') return forbiddenPage(r, result.message);
  await setNotice(
    r,
    result.ok
      ? `Client “${found.client.name}” deleted; its outstanding tokens are revoked.`
      : `Could not delete the client: ${result.message}`,
  );
  redirect(r.res, credentialsHref(r, found.project, 'oauth-clients'));
}

export const clientDeleteRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/oauth-clients/:clientId/delete', access: 'session', handle: confirmDelete },
  { method: 'POST', path: '/projects/:id/oauth-clients/:clientId/delete', access: 'session', handle: deleteClient },
];
