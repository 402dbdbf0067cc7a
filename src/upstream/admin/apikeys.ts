import { createApiKey } from '#admin';
import { type AdminRoute, ok, operatorActor } from './route.ts';

export const apiKeyRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/projects/:id/apikeys',
    async handle(ctx, req, params) {
      const { apiKey, secret } = await createApiKey(ctx, operatorActor(req), params['id'] ?? '');
      return ok({ key: apiKey.key, secret }, 201);
    },
  },
];
