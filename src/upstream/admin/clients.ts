import { createClient, createClientInput, listClients, parseInput, setClientEnabled } from '#admin';
import { readJsonObject } from './body.ts';
import { type AdminRoute, ok, operatorActor, requireProject } from './route.ts';
import { clientView } from './views.ts';

export const clientRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/projects/:id/clients',
    async handle(ctx, req, params) {
      // The project first: an unknown one is a 404 whatever the body holds.
      const project = await requireProject(ctx, req, params['id']);
      const input = parseInput(createClientInput, await readJsonObject(req));
      const created = await createClient(ctx, operatorActor(req), project.id, input);
      // The secret is shown here once; only its hash is stored.
      const { client_id, ...rest } = clientView(created.client);
      return ok({ client_id, client_secret: created.clientSecret, ...rest }, 201);
    },
  },
  {
    method: 'GET',
    path: '/projects/:id/clients',
    async handle(ctx, req, params) {
      return ok((await listClients(ctx, operatorActor(req), params['id'] ?? '')).map(clientView));
    },
  },
  {
    method: 'POST',
    path: '/clients/:id/disable',
    async handle(ctx, req, params) {
      return enabledView(await setClientEnabled(ctx, operatorActor(req), params['id'] ?? '', false));
    },
  },
  {
    method: 'POST',
    path: '/clients/:id/enable',
    async handle(ctx, req, params) {
      return enabledView(await setClientEnabled(ctx, operatorActor(req), params['id'] ?? '', true));
    },
  },
];

function enabledView(client: { clientId: string; enabled: boolean }) {
  return ok({ client_id: client.clientId, enabled: client.enabled });
}
