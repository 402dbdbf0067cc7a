import { parseInput, rotateKeysInput } from '#admin';
import { readJsonObject } from './body.ts';
import { type AdminRoute, ok } from './route.ts';
import { keyView } from './views.ts';

export const keyRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/keys',
    async handle(service, actor) {
      return ok((await service.listKeys(actor)).map(keyView));
    },
  },
  {
    method: 'POST',
    path: '/keys/rotate',
    /**
     * Body (optional): `{"now": true}` for an emergency rotation (the active key is compromised):
     * the next key signs at once even if gateways may not hold it yet (the feed tells them). Without
     * it a rotation is refused (409) until the next key has been published long enough.
     */
    async handle(service, actor, req) {
      const { kid } = await service.rotateKeys(actor, parseInput(rotateKeysInput, await readJsonObject(req)));
      return ok({ kid });
    },
  },
];
