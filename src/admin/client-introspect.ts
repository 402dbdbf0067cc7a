import { isWellFormedId, type OAuthClient } from '#store';
import { requireOperator } from './access.ts';
import type { Actor } from './actor.ts';
import { recordClientActivity } from './clients.ts';
import type { AdminContext } from './context.ts';
import { notFound } from './errors.ts';
import type { SetClientIntrospectInput } from './input/operations.ts';

/**
 * Grants or withdraws a client's permission to call the introspection endpoint (RFC 7662). The
 * operator's alone: an introspecting client learns whether any client's token is active. The store
 * announces the change, so every replica reads the client again before its next introspection.
 */
export async function setClientIntrospect(
  ctx: AdminContext,
  actor: Actor,
  clientId: string,
  input: SetClientIntrospectInput,
): Promise<OAuthClient> {
  requireOperator(actor);
  const client = isWellFormedId(clientId) ? await ctx.store.setClientIntrospect(clientId, input.allowed) : null;
  if (!client) throw notFound('client', clientId);
  ctx.log.info({ actor, clientId, introspect: input.allowed }, 'admin: client introspection permission changed');
  await recordClientActivity(ctx, actor, client, input.allowed ? 'client.introspect_on' : 'client.introspect_off');
  return client;
}
