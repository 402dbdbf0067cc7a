import type { OAuthClient, Project } from '#store';
import { html } from '../html/escape.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type Linked, loadProject, notFoundPage, projectHref, type SessionRequest } from './common.ts';
import { actStep, type Credential, confirmStep } from './credential-action.ts';

/** The client's settings page (client-settings.ts), under which its secret's forms post too. */
export const clientHref = (r: Linked, project: Project, client: OAuthClient) =>
  `${projectHref(r, project)}/oauth-clients/${encodeURIComponent(client.clientId)}`;

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

export const clientCredential: Credential<{ project: Project; client: OAuthClient }> = {
  load: loadClient,
  tab: 'oauth-clients',
  list: 'OAuth 2.0 clients',
};

/** What a confirmation shows of the client it acts on. */
export const clientFacts = (client: OAuthClient) =>
  html`<div><dt>Client id</dt><dd><code>${client.clientId}</code></dd></div>`;

const confirmDisable = confirmStep(clientCredential, ({ client }) => ({
  title: `Disable ${client.name}`,
  heading: `Disable “${client.name}”?`,
  warning: html`<strong>Disabling revokes every outstanding access token of this client.</strong> Calls with those tokens are refused at once (error 1024), and the token endpoint refuses the client (<code>invalid_client</code>) until it is enabled again. Tokens revoked now stay revoked after enabling.`,
  facts: clientFacts(client),
  button: 'Disable client and revoke its tokens',
  step: 'Disable client',
}));

function setEnabled(enabled: boolean) {
  return actStep(
    clientCredential,
    (r, { client }) => r.app.service.setClientEnabled(actor(r), client.clientId, enabled),
    ({ client }) => ({
      done: `Client “${client.name}” ${enabled ? 'enabled' : 'disabled; its outstanding tokens are revoked'}.`,
      failed: `Could not ${enabled ? 'enable' : 'disable'} the client`,
    }),
  );
}

const CLIENT = '/projects/:id/oauth-clients/:clientId';

export const clientStateRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: `${CLIENT}/disable`, access: 'session', handle: confirmDisable },
  { method: 'POST', path: `${CLIENT}/disable`, access: 'session', handle: setEnabled(false) },
  { method: 'POST', path: `${CLIENT}/enable`, access: 'session', handle: setEnabled(true) },
];
