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
];
