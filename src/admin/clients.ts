import { planAllowsOAuth } from '#common';
import { ClientRevocationError } from '#issuer';
import { isWellFormedId, type OAuthClient } from '#store';
import { requireOperator, requireRole } from './access.ts';
import { recordActivity } from './activity.ts';
import type { Actor } from './actor.ts';
import type { AdminContext } from './context.ts';
import { clientAuthMethod } from './input/jwks.ts';
import { AdminError, conflict, notFound } from './errors.ts';
import type { CreateClientInput, SetClientDpopInput, SetClientKeysInput } from './input/operations.ts';
import { findProject, getProject } from './projects.ts';

/** A new client; `clientSecret` is shown once, and null for a private_key_jwt client (it has none). */
export interface NewClient {
  readonly client: OAuthClient;
  readonly clientSecret: string | null;
}

/** Only business and enterprise projects may hold OAuth clients. The secret is returned here once. */
export async function createClient(
  ctx: AdminContext,
  actor: Actor,
  projectId: string,
  input: CreateClientInput,
): Promise<NewClient> {
  // Introspection answers about any client's tokens: only the operator grants it.
  if (input.introspect) requireOperator(actor);
  const project = await getProject(ctx, actor, projectId, 'write');
  if (!planAllowsOAuth(project.plan)) {
    throw conflict(
      `project plan "${project.plan}" does not allow OAuth clients: only business and enterprise plans do`,
    );
  }
  const fields = {
    projectId: project.id,
    name: input.name,
    scopes: [...input.scopes],
    ...(input.require_dpop ? { requireDpop: true } : {}),
    ...(input.introspect ? { introspect: true } : {}),
  };
  const created: NewClient = input.jwks
    ? { client: await ctx.issuer.createKeyClient({ ...fields, jwks: input.jwks }), clientSecret: null }
    : await ctx.issuer.createClient(fields);
  ctx.log.info(
    { actor, projectId: project.id, clientId: created.client.clientId, auth: clientAuthMethod(created.client) },
    'admin: client created',
  );
  await recordActivity(ctx, actor, project.accountId, 'client.create', created.client.clientId);
  return created;
}

/**
 * Replaces a private_key_jwt client's public keys; assertions signed by a key no longer in the
 * set are refused from now on, on every replica (the token endpoint reads the set from the store).
 */
export async function setClientKeys(
  ctx: AdminContext,
  actor: Actor,
  clientId: string,
  input: SetClientKeysInput,
): Promise<OAuthClient> {
  await requireWritableClient(ctx, actor, clientId);
  const client = isWellFormedId(clientId) ? await ctx.issuer.setClientJwks(clientId, input.jwks) : null;
  if (client) {
    ctx.log.info({ actor, clientId, keys: input.jwks.keys.length }, 'admin: client keys replaced');
    await recordClientActivity(ctx, actor, client, 'client.keys');
    return client;
  }
  if (await findClient(ctx, actor, clientId))
    throw conflict('client authenticates with a secret: only a private_key_jwt client has keys');
  throw notFound('client', clientId);
}

/** Makes the client's token requests need a DPoP proof (all its tokens key-bound), or not. */
export async function setClientDpop(
  ctx: AdminContext,
  actor: Actor,
  clientId: string,
  input: SetClientDpopInput,
): Promise<OAuthClient> {
  await requireWritableClient(ctx, actor, clientId);
  const client = isWellFormedId(clientId) ? await ctx.issuer.setClientRequireDpop(clientId, input.required) : null;
  if (!client) throw notFound('client', clientId);
  ctx.log.info({ actor, clientId, required: input.required }, 'admin: client DPoP requirement changed');
  await recordClientActivity(ctx, actor, client, input.required ? 'client.dpop_on' : 'client.dpop_off');
  return client;
}

/** Logs a change of the client in its account's activity (none if its project went meanwhile). */
export async function recordClientActivity(
  ctx: AdminContext,
  actor: Actor,
  client: OAuthClient,
  action: string,
  target: string = client.clientId,
): Promise<void> {
  const project = await ctx.store.getProject(client.projectId);
  if (project) await recordActivity(ctx, actor, project.accountId, action, target);
}

/** A person changes only clients of their accounts' projects (404 otherwise), as owner or developer (403). */
async function requireWritableClient(ctx: AdminContext, actor: Actor, clientId: string): Promise<void> {
  if (actor.kind !== 'person') return;
  const client = await findClient(ctx, actor, clientId);
  const project = client ? await findProject(ctx, actor, client.projectId) : null;
  if (!project) throw notFound('client', clientId);
  requireRole(actor, project.accountId, 'write');
}

/** How the client proves itself at the token endpoint. */
export async function listClients(ctx: AdminContext, actor: Actor, projectId: string): Promise<OAuthClient[]> {
  const project = await getProject(ctx, actor, projectId);
  return ctx.store.listClients(project.id);
}

/**
 * The client, or null when there is none with this id (an id no id can be included) or it is in
 * a project the actor may not see: another account's client is answered as one that does not exist.
 */
export async function findClient(ctx: AdminContext, actor: Actor, clientId: string): Promise<OAuthClient | null> {
  const client = isWellFormedId(clientId) ? await ctx.store.getClient(clientId) : null;
  if (!client || actor.kind !== 'person') return client;
  return (await findProject(ctx, actor, client.projectId)) ? client : null;
}

/**
 * Disabling revokes the client's outstanding tokens (the issuer does it). A disable stored without
 * its revocation is refused with 500 saying so, so the operator disables again instead of trusting it.
 */
export async function setClientEnabled(
  ctx: AdminContext,
  actor: Actor,
  clientId: string,
  enabled: boolean,
): Promise<OAuthClient> {
  const found = await findClient(ctx, actor, clientId);
  if (!found) throw notFound('client', clientId);
  const project = await findProject(ctx, actor, found.projectId);
  if (project) requireRole(actor, project.accountId, 'write');
  const client = isWellFormedId(clientId)
    ? await ctx.issuer
        .setClientEnabled(clientId, enabled)
        .catch((error: unknown) => halfDisabled(ctx, actor, clientId, error))
    : null;
  if (!client) throw notFound('client', clientId);
  ctx.log.info({ actor, clientId, enabled }, 'admin: client enabled changed');
  if (project)
    await recordActivity(ctx, actor, project.accountId, enabled ? 'client.enable' : 'client.disable', clientId);
  return client;
}

/**
 * Deletes a client: first disabled, which revokes its outstanding tokens and stops the token
 * endpoint issuing more while the record goes, then deleted (the token endpoint then answers
 * `invalid_client`). The revocation outlives the record. A disable that could not revoke is
 * refused as for `setClientEnabled`, and nothing is deleted.
 */
export async function deleteClient(ctx: AdminContext, actor: Actor, clientId: string): Promise<OAuthClient> {
  const found = await findClient(ctx, actor, clientId);
  const project = found ? await ctx.store.getProject(found.projectId) : null;
  if (!found) throw notFound('client', clientId);
  if (project) requireRole(actor, project.accountId, 'write');
  await ctx.issuer
    .setClientEnabled(found.clientId, false)
    .catch((error: unknown) => halfDisabled(ctx, actor, found.clientId, error));
  const deleted = await ctx.store.deleteClient(found.clientId);
  if (!deleted) throw notFound('client', clientId);
  ctx.log.info({ actor, clientId: found.clientId }, 'admin: client deleted');
  if (project) await recordActivity(ctx, actor, project.accountId, 'client.delete', found.clientId);
  return deleted;
}

function halfDisabled(ctx: AdminContext, actor: Actor, clientId: string, error: unknown): never {
  if (!(error instanceof ClientRevocationError)) throw error;
  ctx.log.error(
    { err: error.cause, actor, clientId },
    'admin: client disabled, but revoking its outstanding tokens failed',
  );
  throw new AdminError('incomplete', error.message);
}
