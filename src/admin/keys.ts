import type { SigningKeyInfo } from '#issuer';
import { requireOperator } from './access.ts';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import type { RotateKeysInput } from './input/operations.ts';

/** The operator's: signing keys are shared by every account. */
export async function listKeys(ctx: AdminContext, actor: Actor): Promise<SigningKeyInfo[]> {
  requireOperator(actor);
  return ctx.issuer.listKeys();
}

/**
 * Promotes the next key to active; answers the kid that now signs. Refused (409) until the next
 * key has been published long enough, unless `now` (an emergency: the active key is compromised).
 */
export async function rotateKeys(ctx: AdminContext, actor: Actor, input: RotateKeysInput): Promise<{ kid: string }> {
  requireOperator(actor);
  const { kid } = await ctx.issuer.rotateKeys({ now: input.now });
  ctx.log.info({ actor, kid, emergency: input.now }, 'admin: signing keys rotated');
  return { kid };
}
