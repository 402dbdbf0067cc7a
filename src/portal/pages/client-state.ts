import type { OAuthClient, Project } from '#store';
import { attempt } from '../attempt.ts';
import { html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, forbiddenPage, loadProject, notFoundPage, type SessionRequest, setNotice } from './common.ts';
import { sendConfirmation } from './project-page.ts';
import { credentialsCrumbs, credentialsHref } from './credentials.ts';

/** The client named in the path, only if it belongs to the project in the path. */
export async function loadClient(r: SessionRequest): Promise<{ project: Project; client: OAuthClient } | undefined> {
  const project = await loadProject(r);
  if (!project) return undefined;
  const id = r.params['clientId'] ?? '';
  const client = await r.app.service.findClient(actor(r), id);
  if (!client || client.projectId !== project.id) {
    notFoundPage(r, 'That OAuth 2.0 client does not exist in this project.');
    return undefined;
  }
  return { project, client };
}

async function confirmDisable(r: SessionRequest) {
  const found = await loadClient(r);
  if (!found) return;
  const { project, client } = found;
  const back = credentialsHref(r, project, 'oauth-clients');
  sendConfirmation(r, {
    title: `Disable ${client.name}`,
    heading: `Disable “${client.name}”?`,
    warning: html`<strong>Disabling revokes every outstanding access token of this client.</strong> Calls with those tokens are refused at once (error 1024), and the token endpoint refuses the client (<code>invalid_client</code>) until it is enabled again. Tokens revoked now stay revoked after enabling.`,
    facts: html`<div><dt>Client id</dt><dd><code>${client.clientId}</code></dd></div>`,
    button: 'Disable client and revoke its tokens',
    action: r.req.url?.split('?', 1)[0] ?? '',
    back,
    crumbs: credentialsCrumbs(r, project, { label: 'OAuth 2.0 clients', href: back }, { label: 'Disable client' }),
  });
}

function setEnabled(enabled: boolean) {
  return async (r: SessionRequest) => {
    const found = await loadClient(r);
    if (!found) return;
    const verb = enabled ? 'enable' : 'disable';
    const result = await attempt(() => r.app.service.setClientEnabled(actor(r), found.client.clientId, enabled));
    if (!result.ok && result.kind === 'forbidden') return forbiddenPage(r, result.message);
    await setNotice(
      r,
      result.ok
        ? `Client “${found.client.name}” ${enabled ? 'enabled' : 'disabled; its outstanding tokens are revoked'}.`
        : `Could not ${verb} the client: ${result.message}`,
    );
    redirect(r.res, credentialsHref(r, found.project, 'oauth-clients'));
  };
}

export const clientStateRoutes: readonly PortalRoute[] = [
  {
    method: 'GET',
    path: '/projects/:id/oauth-clients/:clientId/disable',
    access: 'session',
    handle: confirmDisable,
  },
  {
    method: 'POST',
    path: '/projects/:id/oauth-clients/:clientId/disable',
    access: 'session',
    handle: setEnabled(false),
  },
  {
    method: 'POST',
    path: '/projects/:id/oauth-clients/:clientId/enable',
    access: 'session',
    handle: setEnabled(true),
  },
];
