import type { ApiKey } from '#store';
import { type AdminRoute, id, ok } from './route.ts';

export const apiKeyRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/projects/:id/apikeys',
    async handle(service, actor, _req, params) {
      const { apiKey, secret } = await service.createApiKey(actor, id(params));
      return ok({ key: apiKey.key, secret }, 201);
    },
  },
  {
    method: 'POST',
    path: '/apikeys/:id/disable',
    async handle(service, actor, _req, params) {
      return enabledView(await service.setApiKeyEnabled(actor, id(params), false));
    },
  },
  {
    method: 'POST',
    path: '/apikeys/:id/enable',
    async handle(service, actor, _req, params) {
      return enabledView(await service.setApiKeyEnabled(actor, id(params), true));
    },
  },
];

/** Never the secret's hash: the key and its state only. */
function enabledView(apiKey: ApiKey) {
  return ok({ key: apiKey.key, enabled: apiKey.enabled });
}
