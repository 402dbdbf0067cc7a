import { z } from 'zod';
import { flagSchema } from './flag.ts';
import { nameSchema } from './name.ts';
import { planSchema } from './plan.ts';
import { scopesSchema } from './scopes.ts';
import { tokenSchema } from './token.ts';

const NOT_AN_OBJECT = 'body must be a JSON object';

/*
 * One schema per operation input, used by every caller: the admin routes parse the JSON body
 * with it, the portal its form. The outputs are branded, so an operation only ever receives
 * input one of these parsed. Unknown fields are dropped; the first failing field (in the order
 * of the object) is the refusal's message.
 */

export const createProjectInput = z
  .object({ name: nameSchema, plan: planSchema }, { error: NOT_AN_OBJECT })
  .brand<'CreateProjectInput'>();
export type CreateProjectInput = z.output<typeof createProjectInput>;

export const createClientInput = z
  .object({ name: nameSchema, scopes: scopesSchema }, { error: NOT_AN_OBJECT })
  .brand<'CreateClientInput'>();
export type CreateClientInput = z.output<typeof createClientInput>;

export const revokeTokenInput = z.object({ token: tokenSchema }, { error: NOT_AN_OBJECT }).brand<'RevokeTokenInput'>();
export type RevokeTokenInput = z.output<typeof revokeTokenInput>;

/** `now`: an emergency rotation (the active key is compromised). */
export const rotateKeysInput = z
  .object({ now: flagSchema('now') }, { error: NOT_AN_OBJECT })
  .brand<'RotateKeysInput'>();
export type RotateKeysInput = z.output<typeof rotateKeysInput>;
