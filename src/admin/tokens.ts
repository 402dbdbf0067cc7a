import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';

export interface TokenToRevoke {
  /** A compact JWT of ours, or a bare jti. */
  readonly token: string;
}

/** The token itself is never logged: only that one was revoked, and by whom. */
export async function revokeToken(ctx: AdminContext, actor: Actor, input: TokenToRevoke): Promise<void> {
  await ctx.issuer.revokeToken(input.token);
  ctx.log.info({ actor }, 'admin: token revoked');
}
