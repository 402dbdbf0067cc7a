import type { OAuthClient } from '#store';
import type { Actor } from './actor.ts';
import { recordClientActivity, findClient } from './clients.ts';
import type { AdminContext } from './context.ts';
import { conflict, notFound } from './errors.ts';
import type { RotateSecretInput } from './input/secret-rotation.ts';
import { findProject } from './projects.ts';
import { requireRole } from './access.ts';
import { newSecret, stillValidUntil } from './secret-rotation.ts';

/** A client after a rotation: its new secret (shown once) and until when the previous one works. */
export interface RotatedClientSecret {
  readonly client: OAuthClient;
  readonly clientSecret: string;
  /** Epoch ms; null when the previous secret stopped at once. */
  readonly previousValidUntil: number | null;
}

/** A client and until when its previous secret still works (null: none does). */
export interface ClientDetail {
  readonly client: OAuthClient;
  readonly previousValidUntil: number | null;
}

/**
 * Gives the client a new secret. Its current one keeps working until the overlap ends (`0`: it
 * stops now); a previous secret from an earlier rotation stops now, so it never has more than two.
 * Tokens already issued are not touched. Every replica applies it to its next token request.
 */
export async function rotateClientSecret(
  ctx: AdminContext,
  actor: Actor,
  clientId: string,
  input: RotateSecretInput,
): Promise<RotatedClientSecret> {
  await writableSecretClient(ctx, actor, clientId);
  const next = newSecret(ctx, input);
  const client = await ctx.store.rotateClientSecret(clientId, next.hash, next.previousValidUntil);
  if (!client) throw notFound('client', clientId);
  ctx.log.info({ actor, clientId, previousValidUntil: next.previousValidUntil }, 'admin: client secret rotated');
  await recordClientActivity(ctx, actor, client, 'client.secret_rotate');
  return { client, clientSecret: next.secret, previousValidUntil: next.previousValidUntil };
}

/**
 * Ends the client's previous secret now, on every replica within a second. A client with none
 * (never rotated, or its overlap is over) is answered the same way: the call is safe to repeat.
 */
export async function retireClientSecret(ctx: AdminContext, actor: Actor, clientId: string): Promise<OAuthClient> {
  await writableSecretClient(ctx, actor, clientId);
  const client = await ctx.store.retireClientSecret(clientId);
  if (!client) throw notFound('client', clientId);
  ctx.log.info({ actor, clientId }, 'admin: client previous secret retired');
  await recordClientActivity(ctx, actor, client, 'client.secret_retire');
  return client;
}

/** One client the actor sees, with until when its previous secret works (`client show`). */
export async function getClientDetail(ctx: AdminContext, actor: Actor, clientId: string): Promise<ClientDetail> {
  const client = await findClient(ctx, actor, clientId);
  if (!client) throw notFound('client', clientId);
  return { client, previousValidUntil: stillValidUntil(ctx, client.previousSecret) };
}

/** A client the actor may change (404 for one they do not see, 403 for a viewer) that has a secret (409). */
async function writableSecretClient(ctx: AdminContext, actor: Actor, clientId: string): Promise<OAuthClient> {
  const client = await findClient(ctx, actor, clientId);
  if (!client) throw notFound('client', clientId);
  const project = await findProject(ctx, actor, client.projectId);
  if (project) requireRole(actor, project.accountId, 'write');
  if (client.secretHash === null)
    throw conflict('client authenticates with private_key_jwt: it has no secret to rotate (replace its keys instead)');
  return client;
}
