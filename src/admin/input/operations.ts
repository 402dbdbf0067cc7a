import { z } from 'zod';
import { flagSchema } from './flag.ts';
import { authSchema, jwksSchema } from './jwks.ts';
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

/** `auth` defaults to a secret; `private_key_jwt` needs `jwks` (its public keys), and only it may have one. */
export const createClientInput = z
  .object(
    {
      name: nameSchema,
      scopes: scopesSchema,
      auth: authSchema.optional(),
      jwks: jwksSchema.optional(),
      require_dpop: z.boolean({ error: 'require_dpop: must be true or false' }).optional(),
      introspect: z.boolean({ error: 'introspect: must be true or false' }).optional(),
    },
    { error: NOT_AN_OBJECT },
  )
  .superRefine((input, ctx) => {
    if (input.auth === 'private_key_jwt' && input.jwks === undefined)
      ctx.addIssue({ code: 'custom', message: 'jwks: required when auth is private_key_jwt' });
    if (input.auth !== 'private_key_jwt' && input.jwks !== undefined)
      ctx.addIssue({ code: 'custom', message: 'jwks: only a private_key_jwt client has keys (send auth too)' });
  })
  .brand<'CreateClientInput'>();
export type CreateClientInput = z.output<typeof createClientInput>;

export const revokeTokenInput = z.object({ token: tokenSchema }, { error: NOT_AN_OBJECT }).brand<'RevokeTokenInput'>();
export type RevokeTokenInput = z.output<typeof revokeTokenInput>;

/** `now`: an emergency rotation (the active key is compromised). */
export const rotateKeysInput = z
  .object({ now: flagSchema('now') }, { error: NOT_AN_OBJECT })
  .brand<'RotateKeysInput'>();
export type RotateKeysInput = z.output<typeof rotateKeysInput>;

/** A private_key_jwt client's new key set: it replaces the old one at once. */
export const setClientKeysInput = z
  .object({ jwks: jwksSchema }, { error: NOT_AN_OBJECT })
  .brand<'SetClientKeysInput'>();
export type SetClientKeysInput = z.output<typeof setClientKeysInput>;

/** `required`: the client's token requests must carry a DPoP proof (RFC 9449). */
export const setClientDpopInput = z
  .object({ required: z.boolean({ error: 'required: must be true or false' }) }, { error: NOT_AN_OBJECT })
  .brand<'SetClientDpopInput'>();
export type SetClientDpopInput = z.output<typeof setClientDpopInput>;

/** `allowed`: the client may call the introspection endpoint (RFC 7662). */
export const setClientIntrospectInput = z
  .object({ allowed: z.boolean({ error: 'allowed: must be true or false' }) }, { error: NOT_AN_OBJECT })
  .brand<'SetClientIntrospectInput'>();
export type SetClientIntrospectInput = z.output<typeof setClientIntrospectInput>;
