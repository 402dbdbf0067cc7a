import type { IncomingMessage } from 'node:http';
import { type DpopNonces, type ProofResult, verifyDpopProof } from '#auth';
import type { Clock, Logger } from '#common';
import type { OAuthClient, UsedJtiStore } from '#store';
import { PATHS } from '../endpoints/paths.ts';
import { DPOP_IAT_WINDOW_SEC } from '../limits.ts';
import { OAuthError } from './oauth-error.ts';

export interface TokenDpopDeps {
  readonly store: UsedJtiStore;
  readonly issuer: string;
  readonly clock: Clock;
  readonly log: Logger;
  /** Server nonces (DPOP_NONCE); undefined while off. */
  readonly nonces?: DpopNonces | undefined;
}

/** What a token request's proof decided: the key to bind to, and the headers of the answer. */
export interface TokenDpop {
  /** The proof key's thumbprint; undefined without a proof (and then the token is Bearer). */
  readonly jkt: string | undefined;
  /** `DPoP-Nonce` with a fresh nonce for a proof's next request, while nonces are on. */
  readonly headers: Readonly<Record<string, string>>;
}

const NO_HEADERS: Readonly<Record<string, string>> = {};

/**
 * The key a token request binds its token to (RFC 9449 §5): the thumbprint of a valid `DPoP`
 * proof for `POST` at the token endpoint as clients address it (under PUBLIC_URL), carrying a
 * current server nonce when nonces are on (§8), its jti not seen before by any replica. No key
 * without a proof, unless the client must use DPoP. A bad proof, or none when one is required,
 * is 400 `invalid_dpop_proof`; a proof without a current nonce 400 `use_dpop_nonce`, with a
 * fresh one in `DPoP-Nonce`.
 */
export async function tokenDpopKey(req: IncomingMessage, client: OAuthClient, deps: TokenDpopDeps): Promise<TokenDpop> {
  // Several DPoP headers (RFC 9449 §4.3 allows one) arrive joined with ", ": no proof parses then.
  const header = req.headers.dpop;
  const proof = Array.isArray(header) ? header.join(', ') : header;
  if (proof === undefined && !client.requireDpop) return { jkt: undefined, headers: NO_HEADERS };
  const url = deps.issuer.replace(/\/+$/, '') + PATHS.token;
  const result: ProofResult = await verifyDpopProof(
    { proof, method: 'POST', url, nonces: deps.nonces },
    { now: () => deps.clock.now(), iatWindowSec: DPOP_IAT_WINDOW_SEC },
  );
  const headers = deps.nonces === undefined ? NO_HEADERS : { 'dpop-nonce': deps.nonces.current() };
  if (!result.ok) {
    const detail = proof === undefined ? 'DPoP required, no proof' : result.detail;
    return refuse(client, deps, detail, result.error === 'use_dpop_nonce' ? 'use_dpop_nonce' : undefined, headers);
  }
  // `iat` comes floored: one second more covers a fractional iat's window to its end.
  const expiresAtSec = result.iat + DPOP_IAT_WINDOW_SEC + 1;
  const fresh = await deps.store.claimJti(`dpop:${result.jkt}`, result.jti, expiresAtSec);
  return fresh
    ? { jkt: result.jkt, headers }
    : refuse(client, deps, 'proof replayed (jti already used)', undefined, headers);
}

function refuse(
  client: OAuthClient,
  deps: TokenDpopDeps,
  detail: string,
  nonce: 'use_dpop_nonce' | undefined,
  headers: Record<string, string>,
): never {
  deps.log.warn({ clientId: client.clientId, reason: detail }, 'DPoP proof refused');
  if (nonce !== undefined)
    throw new OAuthError('use_dpop_nonce', 'the DPoP proof must carry the nonce in the DPoP-Nonce header', { headers });
  throw new OAuthError('invalid_dpop_proof', 'the DPoP proof is missing or invalid', { headers });
}
