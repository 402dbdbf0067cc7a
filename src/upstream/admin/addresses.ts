import { reloadAddresses } from '#admin';
import { type AdminRoute, ok, operatorActor } from './route.ts';

export const addressRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/address/reload',
    async handle(ctx, req) {
      // Called by `tokengate admin address import` once a new data set is installed under DATA_DIR.
      await reloadAddresses(ctx, operatorActor(req));
      return ok({ reloaded: true });
    },
  },
];
