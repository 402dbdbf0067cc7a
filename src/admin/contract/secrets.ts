import { rotateSecretInput } from '../input/secret-rotation.ts';
import { operation } from './operation.ts';
import {
  clientDetailView,
  retiredApiKeySecretView,
  retiredClientSecretView,
  rotatedApiKeySecretView,
  rotatedClientSecretView,
  toClientDetailView,
  toRetiredApiKeySecretView,
  toRotatedApiKeySecretView,
  toRotatedClientSecretView,
} from './secret-views.ts';

const OVERLAP =
  'The previous secret keeps working until the overlap ends (`overlap`: default "24h", at most "30d", "0" for not at all); an older one stops now, so never more than two work. Tokens already issued are not affected.';

/** Showing a client, and rotating and retiring the secrets of clients and API keys. */
export const secretOperations = {
  getClient: operation({
    method: 'GET',
    path: '/clients/:id',
    access: 'read',
    summary: 'Show one OAuth client (never a secret), and until when its previous secret still works, if it does.',
    output: clientDetailView,
    run: async (service, actor, { id }) => toClientDetailView(await service.getClientDetail(actor, id)),
  }),
  rotateClientSecret: operation({
    method: 'POST',
    path: '/clients/:id/secret/rotate',
    access: 'write',
    summary: `Give a client a new secret, shown once. ${OVERLAP}`,
    input: rotateSecretInput,
    output: rotatedClientSecretView,
    run: async (service, actor, { id, input }) =>
      toRotatedClientSecretView(await service.rotateClientSecret(actor, id, input)),
  }),
  retireClientSecret: operation({
    method: 'POST',
    path: '/clients/:id/secret/retire',
    access: 'write',
    summary:
      'End a client’s previous secret now, before its overlap ends; every replica refuses it within a second. A client with none is answered the same (safe to repeat).',
    output: retiredClientSecretView,
    run: async (service, actor, { id }) => ({
      client_id: (await service.retireClientSecret(actor, id)).clientId,
      previous_valid_until: null,
    }),
  }),
  rotateApiKeySecret: operation({
    method: 'POST',
    path: '/apikeys/:id/secret/rotate',
    access: 'write',
    summary: `Give an API key a new secret, shown once. ${OVERLAP}`,
    input: rotateSecretInput,
    output: rotatedApiKeySecretView,
    run: async (service, actor, { id, input }) =>
      toRotatedApiKeySecretView(await service.rotateApiKeySecret(actor, id, input)),
  }),
  retireApiKeySecret: operation({
    method: 'POST',
    path: '/apikeys/:id/secret/retire',
    access: 'write',
    summary:
      'End an API key’s previous secret now, before its overlap ends. A key with none is answered the same (safe to repeat).',
    output: retiredApiKeySecretView,
    run: async (service, actor, { id }) => toRetiredApiKeySecretView(await service.retireApiKeySecret(actor, id)),
  }),
};
