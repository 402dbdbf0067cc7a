import { revokeToken } from '#admin';
import { readJsonObject, tokenField } from './input.ts';
import { type AdminRoute, ok, operatorActor } from './route.ts';

export const tokenRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/tokens/revoke',
    async handle(ctx, req) {
      const token = tokenField(await readJsonObject(req));
      await revokeToken(ctx, operatorActor(req), { token });
      return ok({ revoked: true });
    },
  },
];
