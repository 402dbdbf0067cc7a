import { readJsonObject, tokenField } from './input.ts';
import { type AdminRoute, ok } from './route.ts';

export const tokenRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/tokens/revoke',
    async handle(ctx, req) {
      const token = tokenField(await readJsonObject(req));
      await ctx.issuer.revokeToken(token);
      ctx.log.info('admin: token revoked');
      return ok({ revoked: true });
    },
  },
];
