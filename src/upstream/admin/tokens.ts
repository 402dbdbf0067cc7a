import { parseInput, revokeTokenInput } from '#admin';
import { readJsonObject } from './body.ts';
import { type AdminRoute, ok } from './route.ts';

export const tokenRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/tokens/revoke',
    async handle(service, actor, req) {
      await service.revokeToken(actor, parseInput(revokeTokenInput, await readJsonObject(req)));
      return ok({ revoked: true });
    },
  },
];
