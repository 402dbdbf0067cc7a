import { AdminError } from '#admin';
import { type AdminRoute, ok } from './route.ts';

export const addressRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/address/reload',
    async handle(ctx) {
      // Called by `tokengate admin address import` once a new data set is installed under DATA_DIR.
      if (!ctx.reloadAddresses) throw new AdminError('route_not_found', 'this upstream hosts no address data set');
      await ctx.reloadAddresses();
      ctx.log.info('admin: address data set reloaded');
      return ok({ reloaded: true });
    },
  },
];
