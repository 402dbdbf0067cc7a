import { generateSecret, hashSecret } from '#common';
import type { ApiKey } from '#store';
import { recordActivity } from './activity.ts';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import { getProject } from './projects.ts';

export interface CreatedApiKey {
  readonly apiKey: ApiKey;
  /** Shown once; only its hash is stored. */
  readonly secret: string;
}

export async function createApiKey(ctx: AdminContext, actor: Actor, projectId: string): Promise<CreatedApiKey> {
  const project = await getProject(ctx, actor, projectId, 'write');
  // Same rule as client secrets: 256 random bits, returned once, stored only as a hash.
  const secret = generateSecret();
  const apiKey = await ctx.store.createApiKey({ projectId: project.id, secretHash: hashSecret(secret) });
  ctx.log.info({ actor, projectId: project.id, key: apiKey.key }, 'admin: api key created');
  await recordActivity(ctx, actor, project.accountId, 'api_key.create', apiKey.key);
  return { apiKey, secret };
}

export async function listApiKeys(ctx: AdminContext, actor: Actor, projectId: string): Promise<ApiKey[]> {
  const project = await getProject(ctx, actor, projectId);
  return ctx.store.listApiKeys(project.id);
}
