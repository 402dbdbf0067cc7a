import { type AdminRoute, ok } from './route.ts';
import { keyView } from './views.ts';

export const keyRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/keys',
    async handle(ctx) {
      return ok((await ctx.issuer.listKeys()).map(keyView));
    },
  },
  {
    method: 'POST',
    path: '/keys/rotate',
    async handle(ctx) {
      const { kid } = await ctx.issuer.rotateKeys();
      ctx.log.info({ kid }, 'admin: signing keys rotated');
      return ok({ kid });
    },
  },
];
