import { z } from 'zod';
import {
  createClientInput,
  revokeTokenInput,
  rotateKeysInput,
  setClientDpopInput,
  setClientKeysInput,
} from '../input/operations.ts';
import { operation } from './operation.ts';
import {
  clientDpopView,
  clientStateView,
  clientView,
  createdClientView,
  keyView,
  reloadedView,
  revokedView,
  rotatedView,
  toClientDpopView,
  toClientStateView,
  toClientView,
  toCreatedClientView,
  toKeyView,
} from './views.ts';

/** OAuth clients, tokens, signing keys and the address data set. */
export const clientOperations = {
  createClient: operation({
    method: 'POST',
    path: '/projects/:id/clients',
    access: 'write',
    parent: 'project',
    input: createClientInput,
    output: createdClientView,
    status: 201,
    run: async (service, actor, { id, input }) => {
      const created = await service.createClient(actor, id, input);
      return toCreatedClientView(created.client, created.clientSecret);
    },
  }),
  listClients: operation({
    method: 'GET',
    path: '/projects/:id/clients',
    access: 'read',
    output: z.array(clientView),
    run: async (service, actor, { id }) => (await service.listClients(actor, id)).map(toClientView),
  }),
  /** A private_key_jwt client's new public key set: it replaces the old one at once. */
  setClientKeys: operation({
    method: 'POST',
    path: '/clients/:id/keys',
    access: 'write',
    input: setClientKeysInput,
    output: clientView,
    run: async (service, actor, { id, input }) => toClientView(await service.setClientKeys(actor, id, input)),
  }),
  setClientDpop: operation({
    method: 'POST',
    path: '/clients/:id/dpop',
    access: 'write',
    input: setClientDpopInput,
    output: clientDpopView,
    run: async (service, actor, { id, input }) => toClientDpopView(await service.setClientDpop(actor, id, input)),
  }),
  disableClient: operation({
    method: 'POST',
    path: '/clients/:id/disable',
    access: 'write',
    output: clientStateView,
    run: async (service, actor, { id }) => toClientStateView(await service.setClientEnabled(actor, id, false)),
  }),
  enableClient: operation({
    method: 'POST',
    path: '/clients/:id/enable',
    access: 'write',
    output: clientStateView,
    run: async (service, actor, { id }) => toClientStateView(await service.setClientEnabled(actor, id, true)),
  }),
  revokeToken: operation({
    method: 'POST',
    path: '/tokens/revoke',
    access: 'write',
    input: revokeTokenInput,
    output: revokedView,
    run: async (service, actor, { input }) => {
      await service.revokeToken(actor, input);
      return { revoked: true } as const;
    },
  }),
  listKeys: operation({
    method: 'GET',
    path: '/keys',
    access: 'operator',
    output: z.array(keyView),
    run: async (service, actor) => (await service.listKeys(actor)).map(toKeyView),
  }),
  /**
   * `{"now": true}`: an emergency rotation (the active key is compromised): the next key signs at
   * once even if gateways may not hold it yet (the feed tells them). Without it a rotation is
   * refused (409) until the next key has been published long enough.
   */
  rotateKeys: operation({
    method: 'POST',
    path: '/keys/rotate',
    access: 'operator',
    input: rotateKeysInput,
    output: rotatedView,
    run: async (service, actor, { input }) => ({ kid: (await service.rotateKeys(actor, input)).kid }),
  }),
  /** Called by `tokengate admin address import` once a new data set is installed under DATA_DIR. */
  reloadAddresses: operation({
    method: 'POST',
    path: '/address/reload',
    access: 'operator',
    output: reloadedView,
    run: async (service, actor) => {
      await service.reloadAddresses(actor);
      return { reloaded: true } as const;
    },
  }),
};
