import { listKeys, parseInput, rotateKeys, rotateKeysInput } from '#admin';
import { readJsonObject } from './body.ts';
import { type AdminRoute, ok, operatorActor } from './route.ts';
import { keyView } from './views.ts';

export const keyRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/keys',
    async handle(ctx, req) {
      return ok((await listKeys(ctx, operatorActor(req))).map(keyView));
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
    async handle(ctx, req) {
      const input = parseInput(rotateKeysInput, await readJsonObject(req));
      return ok(await rotateKeys(ctx, operatorActor(req), input));
    },
  },
];
