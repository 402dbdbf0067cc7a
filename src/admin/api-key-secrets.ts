import type { ApiKey } from '#store';
import { recordActivity } from './activity.ts';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import { notFound } from './errors.ts';
import type { RotateSecretInput } from './input/secret-rotation.ts';
import { writableKeyProject } from './api-keys.ts';
import { newSecret } from './secret-rotation.ts';

/** An API key after a rotation: its new secret (shown once) and until when the previous one works. */
export interface RotatedApiKeySecret {
  readonly apiKey: ApiKey;
  readonly secret: string;
  /** Epoch ms; null when the previous secret stopped at once. */
  readonly previousValidUntil: number | null;
}

/**
 * Gives the API key a new secret; the current one keeps working until the overlap ends (`0`: it
 * stops now), and a previous one from an earlier rotation stops now (never more than two).
 */
export async function rotateApiKeySecret(
  ctx: AdminContext,
  actor: Actor,
  key: string,
  input: RotateSecretInput,
): Promise<RotatedApiKeySecret> {
  const project = await writableKeyProject(ctx, actor, key);
  const next = newSecret(ctx, input);
  const apiKey = await ctx.store.rotateApiKeySecret(key, next.hash, next.previousValidUntil);
  if (!apiKey) throw notFound('api key', key);
  ctx.log.info({ actor, key, previousValidUntil: next.previousValidUntil }, 'admin: api key secret rotated');
  await recordActivity(ctx, actor, project.accountId, 'api_key.secret_rotate', key);
  return { apiKey, secret: next.secret, previousValidUntil: next.previousValidUntil };
}

/** Ends the key's previous secret now; a key with none is answered the same way (safe to repeat). */
export async function retireApiKeySecret(ctx: AdminContext, actor: Actor, key: string): Promise<ApiKey> {
  const project = await writableKeyProject(ctx, actor, key);
  const apiKey = await ctx.store.retireApiKeySecret(key);
  if (!apiKey) throw notFound('api key', key);
  ctx.log.info({ actor, key }, 'admin: api key previous secret retired');
  await recordActivity(ctx, actor, project.accountId, 'api_key.secret_retire', key);
  return apiKey;
}
