import { generateSecret, hashSecret } from '#common';
import { type ApiKey, isWellFormedId, type Project } from '#store';
import { requireRole } from './access.ts';
import { recordActivity } from './activity.ts';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import { notFound } from './errors.ts';
import { findProject, getProject } from './projects.ts';

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

/**
 * Deletes an API key: calls with it are refused from then on, on every replica. A key of a
 * project the actor may not see is answered as one that does not exist (404).
 */
export async function deleteApiKey(ctx: AdminContext, actor: Actor, key: string): Promise<ApiKey> {
  const project = await writableKeyProject(ctx, actor, key);
  const deleted = await ctx.store.deleteApiKey(key);
  if (!deleted) throw notFound('api key', key);
  ctx.log.info({ actor, projectId: project.id, key }, 'admin: api key deleted');
  await recordActivity(ctx, actor, project.accountId, 'api_key.delete', key);
  return deleted;
}

/**
 * Disables or enables an API key: a disabled key's calls are refused (1001, as an unknown key)
 * until it is enabled again, on every replica within a second. Doing what is already so is
 * allowed, and logged like any change.
 */
export async function setApiKeyEnabled(
  ctx: AdminContext,
  actor: Actor,
  key: string,
  enabled: boolean,
): Promise<ApiKey> {
  const project = await writableKeyProject(ctx, actor, key);
  const changed = await ctx.store.setApiKeyEnabled(key, enabled);
  if (!changed) throw notFound('api key', key);
  ctx.log.info({ actor, projectId: project.id, key, enabled }, 'admin: api key enabled changed');
  await recordActivity(ctx, actor, project.accountId, enabled ? 'api_key.enable' : 'api_key.disable', key);
  return changed;
}

/** The key's project, if the actor sees it (else 404, as for no key) and may change it (else 403). */
export async function writableKeyProject(ctx: AdminContext, actor: Actor, key: string): Promise<Project> {
  const found = isWellFormedId(key) ? await ctx.store.getApiKey(key) : null;
  const project = found ? await findProject(ctx, actor, found.projectId) : null;
  if (!project) throw notFound('api key', key);
  requireRole(actor, project.accountId, 'write');
  return project;
}

export async function listApiKeys(ctx: AdminContext, actor: Actor, projectId: string): Promise<ApiKey[]> {
  const project = await getProject(ctx, actor, projectId);
  return ctx.store.listApiKeys(project.id);
}
