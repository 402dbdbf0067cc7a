import { requireRole } from './access.ts';
import type { Actor, PersonActor } from './actor.ts';
import { findClient, recordClientActivity } from './clients.ts';
import type { AdminContext } from './context.ts';
import { AdminError } from './errors.ts';
import type { RevokeTokenInput } from './input/operations.ts';
import { findProject } from './projects.ts';

/** The token itself is never logged: only that one was revoked, and by whom. */
export async function revokeToken(ctx: AdminContext, actor: Actor, input: RevokeTokenInput): Promise<void> {
  if (actor.kind === 'person') await requireOwnToken(ctx, actor, input.token);
  await ctx.issuer.revokeToken(input.token);
  ctx.log.info({ actor }, 'admin: token revoked');
  await recordRevocation(ctx, actor, input.token);
}

/** In the activity of the token's client's account, named by its jti (never the token itself). */
async function recordRevocation(ctx: AdminContext, actor: Actor, token: string): Promise<void> {
  const claims = tokenClaims(token);
  const clientId = claims?.['client_id'];
  const client = typeof clientId === 'string' ? await findClient(ctx, actor, clientId) : null;
  const jti = claims?.['jti'];
  if (client)
    await recordClientActivity(
      ctx,
      actor,
      client,
      'token.revoke',
      typeof jti === 'string' ? jti : (clientId as string),
    );
}

/**
 * A person revokes only their accounts' tokens: the token itself is needed (a bare jti names no
 * client), and its client must be in a project they may change. The issuer then checks our
 * signature, so a token forged to name their client is refused there.
 */
async function requireOwnToken(ctx: AdminContext, actor: PersonActor, token: string): Promise<void> {
  const clientId = tokenClientId(token);
  if (clientId === undefined)
    throw new AdminError('invalid_input', 'token: paste the access token itself (a jti alone cannot be checked)');
  const client = await findClient(ctx, actor, clientId);
  const project = client ? await findProject(ctx, actor, client.projectId) : null;
  if (!project) throw new AdminError('not_found', 'token: not a token of a client of your accounts');
  requireRole(actor, project.accountId, 'write');
}

/** The `client_id` claim, read without checking the signature (the issuer checks it next). */
function tokenClientId(token: string): string | undefined {
  const clientId = tokenClaims(token)?.['client_id'];
  return typeof clientId === 'string' ? clientId : undefined;
}

/** The token's claims, unverified; undefined when it is no JWT. */
function tokenClaims(token: string): Record<string, unknown> | undefined {
  const payload = token.split('.')[1];
  if (token.split('.').length !== 3 || !payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
