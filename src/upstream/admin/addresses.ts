import { type AdminRoute, ok } from './route.ts';

export const addressRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/address/reload',
    async handle(service, actor) {
      // Called by `tokengate admin address import` once a new data set is installed under DATA_DIR.
      await service.reloadAddresses(actor);
      return ok({ reloaded: true });
    },
  },
];
