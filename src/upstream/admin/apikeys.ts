import { generateSecret, hashSecret } from '#common';
import { type AdminRoute, ok, requireProject } from './route.ts';

export const apiKeyRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/projects/:id/apikeys',
    async handle(ctx, req, params) {
      const project = await requireProject(ctx, req, params['id']);
      // Same rule as client secrets: 256 random bits, returned once, stored only as a hash.
      const secret = generateSecret();
      const apiKey = await ctx.store.createApiKey({ projectId: project.id, secretHash: hashSecret(secret) });
      ctx.log.info({ projectId: project.id, key: apiKey.key }, 'admin: api key created');
      return ok({ key: apiKey.key, secret }, 201);
    },
  },
];
