import { z } from 'zod';
import {
  createClientInput,
  revokeTokenInput,
  rotateKeysInput,
  setClientDpopInput,
  setClientIntrospectInput,
  setClientKeysInput,
} from '../input/operations.ts';
import { operation } from './operation.ts';
import {
  clientDpopView,
  clientIntrospectView,
  clientStateView,
  clientView,
  createdClientView,
  keyView,
  reloadedView,
  revokedView,
  rotatedView,
  toClientDpopView,
  toClientIntrospectView,
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
    summary:
      'Create an OAuth client (business and enterprise plans only). A secret client’s secret is shown once; a private_key_jwt client has none and signs its assertions with the private keys of its key set.',
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
    summary: 'List the OAuth clients of a project (never a secret).',
    output: z.array(clientView),
    run: async (service, actor, { id }) => (await service.listClients(actor, id)).map(toClientView),
  }),
  /** A private_key_jwt client's new public key set: it replaces the old one at once. */
  setClientKeys: operation({
    method: 'POST',
    path: '/clients/:id/keys',
    access: 'write',
    summary: 'Replace a private_key_jwt client’s public keys; assertions signed by a removed key are refused at once.',
    input: setClientKeysInput,
    output: clientView,
    run: async (service, actor, { id, input }) => toClientView(await service.setClientKeys(actor, id, input)),
  }),
  setClientDpop: operation({
    method: 'POST',
    path: '/clients/:id/dpop',
    access: 'write',
    summary:
      'Make a client’s token requests need a DPoP proof (every token it gets is then key-bound), or no longer; every replica applies it to the next token request.',
    input: setClientDpopInput,
    output: clientDpopView,
    run: async (service, actor, { id, input }) => toClientDpopView(await service.setClientDpop(actor, id, input)),
  }),
  setClientIntrospect: operation({
    method: 'POST',
    path: '/clients/:id/introspect',
    access: 'operator',
    summary:
      'Allow a client to call the token introspection endpoint (RFC 7662), or no longer; every replica applies it to the next introspection request.',
    input: setClientIntrospectInput,
    output: clientIntrospectView,
    run: async (service, actor, { id, input }) =>
      toClientIntrospectView(await service.setClientIntrospect(actor, id, input)),
  }),
  disableClient: operation({
    method: 'POST',
    path: '/clients/:id/disable',
    access: 'write',
    summary: 'Disable an OAuth client and revoke its outstanding tokens.',
    output: clientStateView,
    run: async (service, actor, { id }) => toClientStateView(await service.setClientEnabled(actor, id, false)),
  }),
  enableClient: operation({
    method: 'POST',
    path: '/clients/:id/enable',
    access: 'write',
    summary: 'Enable an OAuth client again.',
    output: clientStateView,
    run: async (service, actor, { id }) => toClientStateView(await service.setClientEnabled(actor, id, true)),
  }),
  revokeToken: operation({
    method: 'POST',
    path: '/tokens/revoke',
    access: 'write',
    summary: 'Revoke one token; every gateway refuses it within a second.',
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
    summary: 'List the signing keys: kid, status, algorithm, when each is removed, and when the next one may sign.',
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
    summary:
      'Promote the next signing key to active; the previous one stays published. Refused (409) until the next key has been published for the key set’s max-age.',
    input: rotateKeysInput,
    output: rotatedView,
    run: async (service, actor, { input }) => ({ kid: (await service.rotateKeys(actor, input)).kid }),
  }),
  /** Called by `tokengate admin address import` once a new data set is installed under DATA_DIR. */
  reloadAddresses: operation({
    method: 'POST',
    path: '/address/reload',
    access: 'operator',
    summary: 'Serve the address data set last installed under DATA_DIR (after `address import`).',
    output: reloadedView,
    run: async (service, actor) => {
      await service.reloadAddresses(actor);
      return { reloaded: true } as const;
    },
  }),
};
