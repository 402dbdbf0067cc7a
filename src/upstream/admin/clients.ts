import type { OAuthClient } from '#store';
import { createClientInput, parseInput, setClientDpopInput, setClientKeysInput } from '#admin';
import { readJsonObject } from './body.ts';
import { type AdminRoute, id, ok } from './route.ts';
import { clientView } from './views.ts';

export const clientRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/projects/:id/clients',
    async handle(service, actor, req, params) {
      // The project first: an unknown one is a 404 whatever the body holds.
      const project = await service.getProject(actor, id(params));
      const input = parseInput(createClientInput, await readJsonObject(req));
      const created = await service.createClient(actor, project.id, input);
      // The secret is shown here once; only its hash is stored. A private_key_jwt client has none.
      const { client_id, ...rest } = clientView(created.client);
      const secret = created.clientSecret === null ? {} : { client_secret: created.clientSecret };
      return ok({ client_id, ...secret, ...rest }, 201);
    },
  },
  {
    method: 'GET',
    path: '/projects/:id/clients',
    async handle(service, actor, _req, params) {
      return ok((await service.listClients(actor, id(params))).map(clientView));
    },
  },
  {
    method: 'POST',
    path: '/clients/:id/keys',
    async handle(service, actor, req, params) {
      const input = parseInput(setClientKeysInput, await readJsonObject(req));
      return ok(clientView(await service.setClientKeys(actor, id(params), input)));
    },
  },
  {
    method: 'POST',
    path: '/clients/:id/dpop',
    async handle(service, actor, req, params) {
      const input = parseInput(setClientDpopInput, await readJsonObject(req));
      const client = await service.setClientDpop(actor, id(params), input);
      return ok({ client_id: client.clientId, require_dpop: client.requireDpop });
    },
  },
  {
    method: 'POST',
    path: '/clients/:id/disable',
    async handle(service, actor, _req, params) {
      return enabledView(await service.setClientEnabled(actor, id(params), false));
    },
  },
  {
    method: 'POST',
    path: '/clients/:id/enable',
    async handle(service, actor, _req, params) {
      return enabledView(await service.setClientEnabled(actor, id(params), true));
    },
  },
];

function enabledView(client: OAuthClient) {
  return ok({ client_id: client.clientId, enabled: client.enabled });
}
