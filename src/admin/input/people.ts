import { z } from 'zod';
import { isEmail, normalEmail } from '../people/email.ts';

const NOT_AN_OBJECT = 'body must be a JSON object';
export const ROLES = ['owner', 'developer', 'viewer'] as const;

const roleSchema = z.enum(ROLES, { error: `role: required, one of ${ROLES.join(', ')}` });

const emailSchema = z
  .string({ error: 'email: required, an email address' })
  .transform(normalEmail)
  .refine(isEmail, 'email: not an email address');

/** Who to invite into an account, and as what. */
export const inviteInput = z
  .object({ email: emailSchema, role: roleSchema }, { error: NOT_AN_OBJECT })
  .brand<'InviteInput'>();
export type InviteInput = z.output<typeof inviteInput>;

export const roleInput = z.object({ role: roleSchema }, { error: NOT_AN_OBJECT }).brand<'RoleInput'>();
export type RoleInput = z.output<typeof roleInput>;
