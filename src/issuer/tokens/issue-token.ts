import { randomBytes } from 'node:crypto';
import { CLIENT_GENERATION_CLAIM } from '#auth';
import { type Clock, epochSeconds, type Scope } from '#common';
import type { OAuthClient } from '#store';
import type { ClientDirectory, ClientRecord } from '../clients/client-directory.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { LiveRevocations } from '../revocation/live-revocations.ts';

export interface IssuedToken {
  readonly token: string;
  readonly jti: string;
  readonly kid: string;
  readonly iat: number;
  readonly exp: number;
}

export interface TokenContext {
  readonly keyring: Keyring;
  readonly revocations: LiveRevocations;
  readonly issuer: string;
  readonly audience: string;
  readonly clock: Clock;
}

/**
 * Mints an RFC 9068 access token, or returns null when the client turns out to be disabled.
 * A record whose client was evicted since its lookup began (a disable landed meanwhile) is read
 * again first, and so is one whose generation is below a disable this replica has applied: the
 * token carries the client's generation (`client_gen`), and one carrying a revoked generation
 * would be refused everywhere. Whatever a replica signs from a stale record is covered by the
 * disable that made it stale, once that disable's entry reaches the verifier.
 */
export async function issueToken(
  record: ClientRecord,
  clients: ClientDirectory,
  scopes: readonly Scope[],
  lifetimeSec: number,
  ctx: TokenContext,
  /** RFC 9449 §6: the DPoP key thumbprint the token is bound to (`cnf.jkt`). */
  jkt?: string,
): Promise<IssuedToken | null> {
  const client = await currentClient(record, clients, ctx.revocations);
  if (!client) return null;
  const iat = epochSeconds(ctx.clock);
  const exp = iat + lifetimeSec;
  const jti = randomBytes(16).toString('base64url');
  const signer = ctx.keyring.signer;
  const token = signer.sign({
    iss: ctx.issuer,
    aud: ctx.audience,
    sub: client.clientId,
    client_id: client.clientId,
    project_id: client.projectId,
    scope: scopes.join(' '),
    iat,
    exp,
    jti,
    [CLIENT_GENERATION_CLAIM]: client.generation,
    ...(jkt === undefined ? {} : { cnf: { jkt } }),
  });
  return { token, jti, kid: signer.kid, iat, exp };
}

/** The client as the store has it since its last eviction; null once it is disabled or gone, or its project or account is. */
async function currentClient(
  record: ClientRecord,
  clients: ClientDirectory,
  revocations: LiveRevocations,
): Promise<OAuthClient | null> {
  const id = record.client.clientId;
  let current: ClientRecord | null = record;
  while (current && !clients.isCurrent(current)) current = await clients.get(id);
  if (current && current.client.generation < revocations.clientGeneration(id)) current = await clients.reload(id);
  if (!current || current.client.generation < revocations.clientGeneration(id)) return null;
  return current.client.enabled && current.project?.accountEnabled ? current.client : null;
}
