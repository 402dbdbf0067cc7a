import { type AccountPerson, isWellFormedId } from '#store';
import { recordActivity } from '../activity.ts';
import type { Actor } from '../actor.ts';
import { getAccount } from '../accounts.ts';
import type { AdminContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { InviteInput, RoleInput } from '../input/people.ts';

/** An invitation is a link valid this long, used once. */
export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;

export interface CreatedInvitation {
  readonly email: string;
  readonly role: InviteInput['role'];
  readonly accountId: string;
  /** Shown once, to whoever invited: only a digest of its secret is stored. */
  readonly inviteUrl: string;
  readonly expiresAt: number;
}

/** The operator invites anyone into any account (its first owner); an owner into their own. */
export async function invitePerson(
  ctx: AdminContext,
  actor: Actor,
  accountId: string,
  input: InviteInput,
): Promise<CreatedInvitation> {
  const account = await getAccount(ctx, actor, accountId, 'owner');
  const { token, invitation } = await ctx.store.createInvitation({
    accountId: account.id,
    email: input.email,
    role: input.role,
    ttlMs: INVITATION_TTL_MS,
  });
  ctx.log.info({ actor, accountId: account.id, role: input.role }, 'admin: person invited');
  await recordActivity(ctx, actor, account.id, 'invitation.create', invitation.email);
  const base = ctx.portalUrl?.() ?? '/portal';
  return {
    email: invitation.email,
    role: invitation.role,
    accountId: account.id,
    inviteUrl: `${base}/invitation?token=${token}`,
    expiresAt: invitation.expiresAt,
  };
}

export async function listPeople(ctx: AdminContext, actor: Actor, accountId: string): Promise<AccountPerson[]> {
  const account = await getAccount(ctx, actor, accountId);
  return ctx.store.listAccountPeople(account.id);
}

/** Owners change roles; the last owner stays one (409). */
export async function setPersonRole(
  ctx: AdminContext,
  actor: Actor,
  accountId: string,
  userId: string,
  input: RoleInput,
): Promise<void> {
  const account = await getAccount(ctx, actor, accountId, 'owner');
  const person = await member(ctx, account.id, userId);
  await ctx.store.changeMembership(account.id, person.userId, input.role);
  ctx.log.info({ actor, accountId: account.id, userId, role: input.role }, 'admin: role changed');
  await recordActivity(ctx, actor, account.id, `role.${input.role}`, person.userId);
}

/** Owners remove people (their sessions lose the account at once); the last owner cannot be removed (409). */
export async function removePerson(ctx: AdminContext, actor: Actor, accountId: string, userId: string): Promise<void> {
  const account = await getAccount(ctx, actor, accountId, 'owner');
  const person = await member(ctx, account.id, userId);
  await ctx.store.changeMembership(account.id, person.userId, null);
  ctx.log.info({ actor, accountId: account.id, userId }, 'admin: person removed');
  await recordActivity(ctx, actor, account.id, 'person.remove', person.userId);
}

async function member(ctx: AdminContext, accountId: string, userId: string): Promise<AccountPerson> {
  const people = isWellFormedId(userId) ? await ctx.store.listAccountPeople(accountId) : [];
  const person = people.find((p) => p.userId === userId);
  if (!person) throw notFound('person', userId);
  return person;
}
