import type { IncomingMessage } from 'node:http';
import { type ProofResult, verifyDpopProof } from '#auth';
import type { Clock, Logger } from '#common';
import type { OAuthClient, Store } from '#store';
import { PATHS } from '../endpoints/metadata.ts';
import { DPOP_IAT_WINDOW_SEC } from '../limits.ts';
import { OAuthError } from './oauth-error.ts';

export interface TokenDpopDeps {
  readonly store: Pick<Store, 'claimJti'>;
  readonly issuer: string;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * The key a token request binds its token to (RFC 9449 §5): the thumbprint of a valid `DPoP`
 * proof for `POST` at the token endpoint as clients address it (under PUBLIC_URL), its jti not
 * seen before by any replica. Undefined without a proof, unless the client must use DPoP.
 * A bad proof, or none when one is required, is 400 `invalid_dpop_proof`.
 */
export async function tokenDpopKey(
  req: IncomingMessage,
  client: OAuthClient,
  deps: TokenDpopDeps,
): Promise<string | undefined> {
  // Several DPoP headers (RFC 9449 §4.3 allows one) arrive joined with ", ": no proof parses then.
  const header = req.headers.dpop;
  const proof = Array.isArray(header) ? header.join(', ') : header;
  if (proof === undefined && !client.requireDpop) return undefined;
  const url = deps.issuer.replace(/\/+$/, '') + PATHS.token;
  const result: ProofResult = await verifyDpopProof(
    { proof, method: 'POST', url },
    { now: () => deps.clock.now(), iatWindowSec: DPOP_IAT_WINDOW_SEC },
  );
  if (!result.ok) return refuse(client, deps, proof === undefined ? 'DPoP required, no proof' : result.detail);
  const fresh = await deps.store.claimJti(`dpop:${result.jkt}`, result.jti, result.iat + DPOP_IAT_WINDOW_SEC);
  return fresh ? result.jkt : refuse(client, deps, 'proof replayed (jti already used)');
}

function refuse(client: OAuthClient, deps: TokenDpopDeps, detail: string): never {
  deps.log.warn({ clientId: client.clientId, reason: detail }, 'DPoP proof refused');
  throw new OAuthError('invalid_dpop_proof', 'the DPoP proof is missing or invalid');
}
