import type { OAuthClient, Project } from '#store';
import { attempt } from '../attempt.ts';
import type { Html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { clientFacts, clientHref as clientSettingsHref, loadClient } from './client-state.ts';
import { actor, forbiddenPage, mayChange, notFoundPage, type SessionRequest, setNotice } from './common.ts';
import { credentialsCrumbs, credentialsHref } from './credentials.ts';
import { sendProjectPage } from './project-page.ts';
import { previousUntil, rotatedBody, rotationInput, secretSection } from './secret-rotation.ts';

/** The client settings page's section on its secret; none for a private_key_jwt client. */
export function clientSecretSection(r: SessionRequest, project: Project, client: OAuthClient): Html | string {
  if (client.secretHash === null) return '';
  return secretSection(r, {
    what: 'the client',
    action: `${clientSettingsHref(r, project, client)}/secret`,
    until: previousUntil(r, client.previousSecret),
    mayChange: mayChange(r, project.accountId),
  });
}

/** The new secret is in this POST's answer only (no-store); a reload lands on the settings page. */
async function rotate(r: SessionRequest) {
  const found = await loadClient(r);
  if (!found) return;
  const { project, client } = found;
  const result = await attempt(() => r.app.service.rotateClientSecret(actor(r), client.clientId, rotationInput(r)));
  if (!result.ok) return refused(r, project, client, result);
  const settings = clientSettingsHref(r, project, client);
  const body = rotatedBody({
    heading: `New secret for ${client.name}`,
    facts: clientFacts(client),
    secret: result.value.clientSecret,
    until: result.value.previousValidUntil,
    back: settings,
    backLabel: 'Done, back to the client',
  });
  const list = { label: 'OAuth 2.0 clients', href: credentialsHref(r, project, 'oauth-clients') };
  const crumbs = credentialsCrumbs(r, project, list, { label: client.name, href: settings }, { label: 'New secret' });
  sendProjectPage(r, { title: `New secret · ${client.name}`, crumbs }, body);
}

async function retire(r: SessionRequest) {
  const found = await loadClient(r);
  if (!found) return;
  const { project, client } = found;
  const result = await attempt(() => r.app.service.retireClientSecret(actor(r), client.clientId));
  if (!result.ok) return refused(r, project, client, result);
  await setNotice(r, `The previous secret of “${client.name}” no longer works: only the current one does.`);
  redirect(r.res, clientSettingsHref(r, project, client));
}

async function refused(
  r: SessionRequest,
  project: Project,
  client: OAuthClient,
  result: { kind: string; message: string },
) {
  if (result.kind === 'forbidden') return forbiddenPage(r, result.message);
  if (result.kind === 'not_found') return notFoundPage(r, 'That OAuth 2.0 client does not exist in this project.');
  await setNotice(r, `Could not change the client’s secret: ${result.message}`);
  redirect(r.res, clientSettingsHref(r, project, client));
}

/** A reload of the page that showed the new secret (app.js made it a GET): the settings page. */
async function back(r: SessionRequest) {
  const found = await loadClient(r);
  if (found) redirect(r.res, clientSettingsHref(r, found.project, found.client));
}

export const clientSecretRoutes: readonly PortalRoute[] = [
  { method: 'POST', path: '/projects/:id/oauth-clients/:clientId/secret/rotate', access: 'session', handle: rotate },
  { method: 'GET', path: '/projects/:id/oauth-clients/:clientId/secret/rotate', access: 'session', handle: back },
  { method: 'POST', path: '/projects/:id/oauth-clients/:clientId/secret/retire', access: 'session', handle: retire },
];
