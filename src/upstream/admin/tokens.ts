import { parseInput, revokeToken, revokeTokenInput } from '#admin';
import { readJsonObject } from './body.ts';
import { type AdminRoute, ok, operatorActor } from './route.ts';

export const tokenRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/tokens/revoke',
    async handle(ctx, req) {
      await revokeToken(ctx, operatorActor(req), parseInput(revokeTokenInput, await readJsonObject(req)));
      return ok({ revoked: true });
    },
  },
];
