import type { ActivityEntry } from '#store';
import { getAccount } from './accounts.ts';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';

/** The longest log an export returns: the latest entries. */
export const ACTIVITY_LIMIT = 500;

/**
 * The account's latest entries, newest first: its owners and the operator only (404 for others).
 * Apart from activity.ts, which records entries, because reading checks the account through
 * accounts.ts, and accounts.ts records its own changes through activity.ts.
 */
export async function accountActivity(ctx: AdminContext, actor: Actor, accountId: string): Promise<ActivityEntry[]> {
  const account = await getAccount(ctx, actor, accountId, 'owner');
  return ctx.store.listActivity(account.id, ACTIVITY_LIMIT);
}
