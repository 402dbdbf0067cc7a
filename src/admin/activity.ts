import type { ActivityStore } from '#store';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';

/** What the log says of who did something: the person's email, or the operator (token or console). */
function who(actor: Actor): string {
  return actor.kind === 'person' ? actor.email : 'operator';
}

/**
 * Adds an entry to the account's activity log: who, what (`client.disable` …), to which target
 * (an id or an invited email, never a secret or a token), from which address, now (UTC).
 */
export async function recordActivity(
  ctx: AdminContext,
  actor: Actor,
  accountId: string,
  action: string,
  target: string,
): Promise<void> {
  await ctx.store.addActivity({ accountId, actor: who(actor), action, target, address: known(actor.address) });
}

/** remoteAddress() says 'unknown' when the socket has none (already closed): the log says null. */
function known(address: string): string | null {
  return address === '' || address === 'unknown' ? null : address;
}

/**
 * A sign-in of a known person, in each of their accounts' logs (`sign_in.success` or
 * `sign_in.failure`; never the password). An unknown email has no account to log in.
 */
export async function recordSignIn(
  store: ActivityStore,
  person: { id: string; email: string },
  accountIds: readonly string[],
  succeeded: boolean,
  address: string,
): Promise<void> {
  await recordPersonAction(store, person, accountIds, succeeded ? 'sign_in.success' : 'sign_in.failure', address);
}

/** Something a person did while signing in (a recovery code used up), in each of their accounts' logs. */
export async function recordPersonAction(
  store: ActivityStore,
  person: { id: string; email: string },
  accountIds: readonly string[],
  action: string,
  address: string,
): Promise<void> {
  const actor: Actor = { kind: 'person', userId: person.id, email: person.email, roles: {}, session: '', address };
  for (const accountId of accountIds)
    await store.addActivity({ accountId, actor: who(actor), action, target: person.id, address: known(address) });
}

/** A person joining an account through its invitation link (`invitation.accept`), in that account's log. */
export async function recordInvitationAccepted(
  store: ActivityStore,
  person: { id: string; email: string },
  accountId: string,
  address: string,
): Promise<void> {
  await store.addActivity({
    accountId,
    actor: person.email,
    action: 'invitation.accept',
    target: person.id,
    address: known(address),
  });
}
