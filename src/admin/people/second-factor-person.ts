import { systemClock } from '#common';
import type { User } from '#store';
import { recordActivity } from '../activity.ts';
import type { Actor } from '../actor.ts';
import type { AdminContext } from '../context.ts';
import { AdminError } from '../errors.ts';

/** The signed-in person asking about their own factors; anyone else (the operator) is refused. */
export async function ownUser(ctx: AdminContext, actor: Actor): Promise<User> {
  const user = actor.kind === 'person' ? await ctx.store.getUser(actor.userId) : null;
  if (!user) throw new AdminError('forbidden', 'only a signed-in person has second factors of their own');
  return user;
}

export function now(ctx: AdminContext): number {
  return (ctx.clock ?? systemClock).now();
}

/** A change to a person's factors goes in the log of each of their accounts (they all trust that sign-in). */
export async function recordFactorChange(
  ctx: AdminContext,
  actor: Actor,
  userId: string,
  action: string,
): Promise<void> {
  const memberships = await ctx.store.listMemberships(userId);
  for (const { accountId } of memberships) await recordActivity(ctx, actor, accountId, action, userId);
}
