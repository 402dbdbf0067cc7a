/**
 * `tokengate/client`: a small client for the token flow (spec: Authentication, client guidance).
 *
 *   const client = createTokenClient({ tokenUrl, clientId, clientSecret, scopes: ['address'] });
 *   const res = await client.fetch(`${base}/api/au/address/autocomplete?q=1+george`);
 */
import { authorizedFetch } from './authorized-fetch.ts';
import { resolveOptions, type TokenClientOptions } from './options.ts';
import { createTokenCache } from './token-cache.ts';

export { TokenEndpointError, TokenRequestError, type TokenRequestFailure } from './errors.ts';
export type { TokenClientOptions } from './options.ts';
export type { ClientSigningKey } from './client-assertion.ts';
export type { DpopAlgorithm, DpopKeyPair } from './dpop-key.ts';

export interface TokenClient {
  /**
   * The cached token while it has more than 5 s left (or the refresh margin, if shorter; inside
   * the margin it also starts the background refresh); otherwise waits for a new one, or rejects
   * at once with the error of the token request that failed just before (1 s, 10 s for a refusal,
   * or a 429 or 503 answer's Retry-After up to 60 s).
   */
  getToken(): Promise<string>;
  /**
   * fetch with `Authorization: Bearer`, or `Authorization: DPoP` and a fresh proof for a DPoP-bound
   * token; retries once with a fresh token on a 1030 or a revoked-token 1024 answer, and once
   * with the server's nonce when it asks for one (`use_dpop_nonce`).
   */
  fetch(input: string | URL, init?: RequestInit): Promise<Response>;
  /**
   * Forgets the cached token (e.g. after the operator rotated credentials). A failed token request
   * still answers calls for the rest of its time (see getToken): it is the issuer's answer, not the token's.
   */
  invalidate(): void;
}

export function createTokenClient(options: TokenClientOptions): TokenClient {
  const resolved = resolveOptions(options);
  const cache = createTokenCache(resolved);
  return {
    getToken: async () => (await cache.get()).token,
    fetch: (input, init) => authorizedFetch({ ...resolved, cache }, input, init),
    invalidate: () => cache.invalidate(),
  };
}
