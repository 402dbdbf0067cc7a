import { failure, type Result, success } from '#common';
import type { InvitationState, User } from '#store';
import { recordInvitationAccepted } from '../activity.ts';
import type { AdminContext } from '../context.ts';
import { type NewPassword, newPasswordRefusal, type PasswordRefusal } from './own-password.ts';
import { hashPassword, verifyPassword } from './password.ts';

/** Failed password checks, counted by the caller (the portal's sign-in limits): guessing through an invitation is limited too. */
export interface PasswordAttempts {
  retryAfterMs(address: string, email: string, accountIds: readonly string[]): number;
  recordFailure(address: string, email: string, accountIds: readonly string[]): void;
}

/** The invitation cannot be used: unknown, used already (perhaps a moment ago, in another tab), or expired. */
export interface UnusableInvitation {
  readonly kind: 'unusable';
  readonly state: Exclude<InvitationState['state'], 'valid'>;
}

export interface AcceptInvitationInput extends NewPassword {
  /** The link's secret: whoever holds it may join, so it is this operation's whole authority. */
  readonly token: string;
  readonly address: string;
}

/**
 * Uses an invitation once: a new person sets their password (checked, then stored hashed), a known
 * one proves theirs under the attempt limits (nothing new is stored); either joins the account,
 * in its activity log. Fails when the invitation cannot be used, or with why the password was not taken.
 */
export async function acceptInvitation(
  ctx: AdminContext,
  input: AcceptInvitationInput,
  attempts: PasswordAttempts,
): Promise<Result<{ readonly user: User; readonly accountId: string }, UnusableInvitation | PasswordRefusal>> {
  const found = await ctx.store.peekInvitation(input.token);
  if (found.state !== 'valid') return failure({ kind: 'unusable', state: found.state });
  const { invitation } = found;
  const user = found.user ?? null;
  let hash: string | null = null;
  if (user?.passwordHash != null) {
    const refusal = await provePassword(ctx, user, input, attempts);
    if (refusal) return failure(refusal);
  } else {
    const refusal = newPasswordRefusal(input, invitation.email, 'The two passwords differ.');
    if (refusal) return failure(refusal);
    hash = await hashPassword(input.password);
  }
  const accepted = await ctx.store.acceptInvitation(input.token, hash);
  if (accepted.state !== 'valid' || !accepted.user)
    return failure({ kind: 'unusable', state: accepted.state === 'valid' ? 'used' : accepted.state });
  await recordInvitationAccepted(ctx.store, accepted.user, invitation.accountId, input.address);
  return success({ user: accepted.user, accountId: invitation.accountId });
}

/** A person who has a password proves it, unless the limits hold their attempts back. */
async function provePassword(
  ctx: AdminContext,
  user: User,
  input: AcceptInvitationInput,
  attempts: PasswordAttempts,
): Promise<PasswordRefusal | undefined> {
  const accounts = (await ctx.store.listMemberships(user.id)).map((m) => m.accountId);
  if (attempts.retryAfterMs(input.address, user.email, accounts) > 0)
    return { kind: 'password', status: 429, message: 'Too many failed attempts. Try again in a few minutes.' };
  if (await verifyPassword(input.password, user.passwordHash)) return undefined;
  attempts.recordFailure(input.address, user.email, accounts);
  return { kind: 'password', status: 401, message: 'That password is not correct.' };
}
