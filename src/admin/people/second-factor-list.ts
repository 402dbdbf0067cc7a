import type { SecondFactor } from '#store';
import type { Actor } from '../actor.ts';
import type { AdminContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import { newRecoveryCodes, recoveryCodeHash } from './second-factor-codes.ts';
import { ownUser, recordFactorChange } from './second-factor-person.ts';

export interface OwnFactors {
  readonly factors: readonly SecondFactor[];
  readonly recoveryCodesLeft: number;
  /** Whether an account of the person requires a second factor (the last one cannot be removed). */
  readonly required: boolean;
}

export async function listOwnFactors(ctx: AdminContext, actor: Actor): Promise<OwnFactors> {
  const user = await ownUser(ctx, actor);
  const [factors, recoveryCodesLeft, state] = await Promise.all([
    ctx.store.listFactors(user.id),
    ctx.store.countRecoveryCodes(user.id),
    ctx.store.secondFactorState(user.id),
  ]);
  return { factors, recoveryCodesLeft, required: state.required };
}

/** Removes one of the person's factors; not the last one while an account of theirs requires 2FA (409). */
export async function removeOwnFactor(ctx: AdminContext, actor: Actor, factorId: string): Promise<void> {
  const user = await ownUser(ctx, actor);
  if (!(await ctx.store.removeFactor(user.id, factorId))) throw notFound('second factor', factorId);
  ctx.log.info({ actor, userId: user.id }, 'admin: second factor removed');
  await recordFactorChange(ctx, actor, user.id, 'two_factor.remove');
}

/** Ten new recovery codes, shown once; the earlier ones stop working. Only for a person with a factor. */
export async function renewRecoveryCodes(ctx: AdminContext, actor: Actor): Promise<readonly string[]> {
  const user = await ownUser(ctx, actor);
  if ((await ctx.store.listFactors(user.id)).length === 0)
    throw conflict('recovery codes come with a second factor: set one up first');
  const codes = newRecoveryCodes();
  await ctx.store.replaceRecoveryCodes(
    user.id,
    codes.map((code) => recoveryCodeHash(user.id, code.replaceAll('-', ''))),
  );
  await recordFactorChange(ctx, actor, user.id, 'two_factor.recovery_codes');
  return codes;
}
