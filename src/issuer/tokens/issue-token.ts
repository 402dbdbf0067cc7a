import { randomBytes } from 'node:crypto';
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
 * again first, so the client record is never older than a cut-off it can see. `iat` is normally
 * now; if the client was disabled (its revocation cut-off covers tokens issued at or before a
 * second) and re-enabled within that same second, `iat` moves to the next second so the new
 * token is not caught by the old cut-off.
 */
export async function issueToken(
  record: ClientRecord,
  clients: ClientDirectory,
  scopes: readonly Scope[],
  lifetimeSec: number,
  ctx: TokenContext,
): Promise<IssuedToken | null> {
  const client = await currentClient(record, clients);
  if (!client) return null;
  // Nothing is awaited from here on, so no eviction or cut-off can land before the signature.
  const cutOff = ctx.revocations.clientCutOff(client.clientId);
  const now = epochSeconds(ctx.clock);
  const iat = cutOff !== undefined && cutOff >= now ? cutOff + 1 : now;
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
  });
  return { token, jti, kid: signer.kid, iat, exp };
}

/** The client as the store has it since its last eviction; null once it is disabled or gone, or its project or account is. */
async function currentClient(record: ClientRecord, clients: ClientDirectory): Promise<OAuthClient | null> {
  let current: ClientRecord | null = record;
  while (current && !clients.isCurrent(current)) current = await clients.get(record.client.clientId);
  return current?.client.enabled && current.project?.accountEnabled ? current.client : null;
}
