import { html } from '../html/escape.ts';
import type { PortalRoute } from '../routing.ts';
import { clientCredential, clientFacts } from './client-state.ts';
import { actor } from './common.ts';
import { actStep, confirmStep } from './credential-action.ts';

const confirmDelete = confirmStep(clientCredential, ({ client }) => ({
  title: `Delete ${client.name}`,
  heading: `Delete “${client.name}”?`,
  warning: html`<strong>Deleting revokes every outstanding access token of this client and removes it.</strong> Calls with its tokens are refused at once (error 1024) and the token endpoint no longer knows it (<code>invalid_client</code>). This cannot be undone: to stop it for a while, disable it instead.`,
  facts: clientFacts(client),
  button: 'Delete client and revoke its tokens',
  step: 'Delete client',
}));

const deleteClient = actStep(
  clientCredential,
  (r, { client }) => r.app.service.deleteClient(actor(r), client.clientId),
  ({ client }) => ({
    done: `Client “${client.name}” deleted; its outstanding tokens are revoked.`,
    failed: 'Could not delete the client',
  }),
);

const CLIENT = '/projects/:id/oauth-clients/:clientId';

export const clientDeleteRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: `${CLIENT}/delete`, access: 'session', handle: confirmDelete },
  { method: 'POST', path: `${CLIENT}/delete`, access: 'session', handle: deleteClient },
];
