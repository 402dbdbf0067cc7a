import { getAccount } from '../accounts.ts';
import { recordActivity } from '../activity.ts';
import { requireOperator } from '../access.ts';
import type { Actor } from '../actor.ts';
import type { AdminContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { RequireTwoFactorInput, ResetTwoFactorInput } from '../input/second-factor.ts';
import { normalEmail } from './email.ts';
import { recordFactorChange } from './second-factor-person.ts';

export interface AccountTwoFactor {
  readonly id: string;
  readonly require2fa: boolean;
}

/**
 * An owner (or the operator) requires a second factor of every member, or stops requiring it.
 * The portal reads the rule on every request, so members without a factor are sent to set one up
 * at once, on every replica.
 */
export async function setAccountRequire2fa(
  ctx: AdminContext,
  actor: Actor,
  accountId: string,
  input: RequireTwoFactorInput,
): Promise<AccountTwoFactor> {
  const account = await getAccount(ctx, actor, accountId, 'owner');
  const required = await ctx.store.setAccountRequire2fa(account.id, input.require_2fa);
  if (required === null) throw notFound('account', accountId);
  ctx.log.info({ actor, accountId: account.id, require2fa: required }, 'admin: account second-factor rule changed');
  await recordActivity(
    ctx,
    actor,
    account.id,
    required ? 'two_factor.required' : 'two_factor.not_required',
    account.id,
  );
  return { id: account.id, require2fa: required };
}

export async function getAccountRequire2fa(
  ctx: AdminContext,
  actor: Actor,
  accountId: string,
): Promise<AccountTwoFactor> {
  const account = await getAccount(ctx, actor, accountId);
  return { id: account.id, require2fa: (await ctx.store.getAccountRequire2fa(account.id)) ?? false };
}

export interface ResetTwoFactor {
  readonly email: string;
  /** How many factors were removed. */
  readonly removed: number;
}

/**
 * The operator removes every factor and recovery code of a person who lost them; they sign in
 * with their password alone (and set a factor up again where an account requires one). Logged in
 * each of their accounts' activity logs.
 */
export async function resetPersonFactors(
  ctx: AdminContext,
  actor: Actor,
  input: ResetTwoFactorInput,
): Promise<ResetTwoFactor> {
  requireOperator(actor);
  const email = normalEmail(input.email);
  const user = await ctx.store.findUserByEmail(email);
  if (!user) throw notFound('person', email);
  const removed = await ctx.store.resetFactors(user.id);
  ctx.log.info({ actor, userId: user.id, removed }, 'admin: second factors reset');
  await recordFactorChange(ctx, actor, user.id, 'two_factor.reset');
  return { email: user.email, removed };
}
