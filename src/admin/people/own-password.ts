import { failure, type Result, success } from '#common';
import type { Actor } from '../actor.ts';
import type { AdminContext } from '../context.ts';
import { hashPassword, passwordProblem, verifyPassword } from './password.ts';

/** Why a password was not taken, said to the person; `status` is the page's. */
export interface PasswordRefusal {
  readonly kind: 'password';
  readonly status: 400 | 401 | 429;
  readonly message: string;
}

/** A new password as the form gives it: typed twice. */
export interface NewPassword {
  readonly password: string;
  readonly confirm: string;
}

/** The password's problem, or that the two differ; undefined when it may be stored. */
export function newPasswordRefusal(input: NewPassword, email: string, differ: string): PasswordRefusal | undefined {
  const problem = passwordProblem(input.password, email);
  if (problem) return { kind: 'password', status: 400, message: problem };
  return input.password === input.confirm ? undefined : { kind: 'password', status: 400, message: differ };
}

/** The actor is no person the store knows (any more): the caller signs them out. */
export interface NoPerson {
  readonly kind: 'no_person';
}

/**
 * A signed-in person changes their own password, proving the current one. The caller ends their
 * other sessions (sessions are the portal's).
 */
export async function changeOwnPassword(
  ctx: AdminContext,
  actor: Actor,
  input: NewPassword & { readonly current: string },
): Promise<Result<{ readonly userId: string }, PasswordRefusal | NoPerson>> {
  const user = actor.kind === 'person' ? await ctx.store.getUser(actor.userId) : null;
  if (!user) return failure({ kind: 'no_person' });
  if (!(await verifyPassword(input.current, user.passwordHash)))
    return failure({ kind: 'password', status: 401, message: 'Your current password is not correct.' });
  const refusal = newPasswordRefusal(input, user.email, 'The two new passwords differ.');
  if (refusal) return failure(refusal);
  await ctx.store.setUserPassword(user.id, await hashPassword(input.password));
  return success({ userId: user.id });
}
