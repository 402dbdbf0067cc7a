import { z } from 'zod';
import { requireTwoFactorInput, resetTwoFactorInput } from '../input/second-factor.ts';
import type { AccountTwoFactor, ResetTwoFactor } from '../people/second-factor-policy.ts';
import { operation } from './operation.ts';
import type { View } from './views.ts';

/** Whether the account requires a second factor of every member. */
export const accountTwoFactorView = z.object({ id: z.string(), require_2fa: z.boolean() });
const toAccountTwoFactorView = (a: AccountTwoFactor): View<typeof accountTwoFactorView> => ({
  id: a.id,
  require_2fa: a.require2fa,
});

/** A person's factors after a reset: none (`removed` says how many went). */
export const resetTwoFactorView = z.object({ email: z.string(), factors: z.literal(0), removed: z.number() });
const toResetTwoFactorView = (r: ResetTwoFactor): View<typeof resetTwoFactorView> => ({
  email: r.email,
  factors: 0,
  removed: r.removed,
});

/** The second factor of people: an account's rule, and the operator's reset of a person's factors. */
export const secondFactorOperations = {
  setAccountRequire2fa: operation({
    method: 'POST',
    path: '/accounts/:id/require-2fa',
    access: 'owner',
    summary:
      'Require a second factor (TOTP) of every member of an account, or stop requiring it. Members without one set it up at their next request and can reach nothing else until they have.',
    parent: 'account',
    input: requireTwoFactorInput,
    output: accountTwoFactorView,
    run: async (service, actor, { id, input }) =>
      toAccountTwoFactorView(await service.setAccountRequire2fa(actor, id, input)),
  }),
  resetPersonFactors: operation({
    method: 'POST',
    path: '/people/reset-2fa',
    access: 'operator',
    summary:
      'Remove every second factor and recovery code of a person (who lost them): they sign in with the password alone, and set a factor up again where an account requires one. Logged in each of their accounts.',
    input: resetTwoFactorInput,
    output: resetTwoFactorView,
    run: async (service, actor, { input }) => toResetTwoFactorView(await service.resetPersonFactors(actor, input)),
  }),
};
