import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import type { RevokeTokenInput } from './input/operations.ts';

/** The token itself is never logged: only that one was revoked, and by whom. */
export async function revokeToken(ctx: AdminContext, actor: Actor, input: RevokeTokenInput): Promise<void> {
  await ctx.issuer.revokeToken(input.token);
  ctx.log.info({ actor }, 'admin: token revoked');
}
