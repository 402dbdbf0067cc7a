import { z } from 'zod';
import { isEmail, normalEmail } from '../people/email.ts';

const NOT_AN_OBJECT = 'body must be a JSON object';

/** `account require-2fa ID --on|--off`. */
export const requireTwoFactorInput = z
  .object({ require_2fa: z.boolean({ error: 'require_2fa: required, true or false' }) }, { error: NOT_AN_OBJECT })
  .brand<'RequireTwoFactorInput'>();
export type RequireTwoFactorInput = z.output<typeof requireTwoFactorInput>;

/** `user reset-2fa --email E`. */
export const resetTwoFactorInput = z
  .object(
    {
      email: z
        .string({ error: 'email: required, an email address' })
        .max(320, 'email: at most 254 characters')
        .transform(normalEmail)
        .refine(isEmail, 'email: not an email address'),
    },
    { error: NOT_AN_OBJECT },
  )
  .brand<'ResetTwoFactorInput'>();
export type ResetTwoFactorInput = z.output<typeof resetTwoFactorInput>;
