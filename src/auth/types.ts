import type { KeyObject } from 'node:crypto';
import type { ApiErrorBody, Clock, Scope } from '#common';

/**
 * Public contract of the verification plugin. It knows nothing of HTTP frameworks, YAML,
 * http-proxy-3 or the store: hosts give it an Authorization header value and a route
 * requirement, and it answers "allowed, with these claims" or a typed failure.
 */

/** What a route needs. `scopes: []` means any valid token. */
export interface RouteRequirement {
  readonly scopes: readonly Scope[];
  readonly match: 'any' | 'all';
}

/** The claims a host may rely on once a token is accepted (RFC 9068 profile). */
export interface VerifiedToken {
  readonly sub: string;
  readonly clientId: string;
  readonly projectId: string;
  readonly scopes: readonly Scope[];
  readonly jti: string;
  readonly iat: number;
  readonly exp: number;
  /**
   * The client's generation when the token was issued (`client_gen`): a disable raises it, which
   * revokes every token carrying a lower one (client-cut-off.ts). Absent from tokens of issuers
   * that predate it.
   */
  readonly clientGen?: number;
  /**
   * RFC 9449 `cnf.jkt`: the thumbprint of the DPoP key the token is bound to. Such a token is
   * accepted only as `Authorization: DPoP` with a proof by that key, never as Bearer.
   */
  readonly jkt?: string;
  /**
   * Every claim of the verified payload, as signed: what a host's own rules on claims read (the
   * gateway's route `claims:` and `claimHeaders:`); hosts only read it.
   */
  readonly claims?: Readonly<Record<string, unknown>>;
  /**
   * The configured name of the external issuer that signed the token (src/auth/issuers); absent
   * for tokengate's own tokens. Its client and project are that issuer's, never tokengate's.
   */
  readonly issuer?: string;
}

/** Closed set of failures; `src/auth/response.ts` is the one place that maps them to HTTP. */
export type AuthFailureKind =
  | 'credentials_missing'
  /** RFC 6750 §3.1: the request is malformed, e.g. several Authorization headers (decided by the host). */
  | 'invalid_request'
  | 'invalid_token'
  | 'token_revoked'
  | 'token_expired'
  | 'insufficient_scope'
  /** The token's claims do not meet a host's rules for the route (the gateway's `claims:`); RFC 6750 §3.1's 403. */
  | 'insufficient_claims'
  | 'keys_unavailable'
  | 'revocations_stale'
  /** An external issuer's introspection endpoint did not answer usably (fail-closed). */
  | 'introspection_unavailable'
  /** RFC 9449 §7.1: `Authorization: DPoP` with a missing, invalid or replayed proof, or one by another key. */
  | 'invalid_dpop_proof'
  /** RFC 9449 §9: the proof lacks a current server nonce; the failure carries a fresh one. */
  | 'use_dpop_nonce';

export interface AuthFailure {
  readonly ok: false;
  readonly kind: AuthFailureKind;
  /** Private detail for the log (which check failed, which kid); never sent to the client. */
  readonly detail: string;
  /** For token_expired: the token's exp (epoch seconds). */
  readonly expiredAt?: number;
  /** For insufficient_scope: what the route required. */
  readonly required?: RouteRequirement;
  /** The request used `Authorization: DPoP`: the challenge is then a DPoP one (RFC 9449 §7.1). */
  readonly dpop?: boolean;
  /** A fresh server nonce for the `DPoP-Nonce` header (RFC 9449 §9), when nonces are on. */
  readonly dpopNonce?: string;
}

export interface AuthSuccess {
  readonly ok: true;
  readonly token: VerifiedToken;
  /** For a DPoP call while nonces are on: the nonce the host sends back in `DPoP-Nonce`. */
  readonly dpopNonce?: string;
}

export type AuthDecision = AuthSuccess | AuthFailure;

/** Where verification keys come from: a remote JWKS cache (gateway) or the issuer's own keys (upstream). */
export interface KeyResolver {
  /** The key for a kid, or undefined when it is not (yet) known. Synchronous: no I/O on the hot path. */
  get(kid: string): KeyObject | undefined;
  /** Called on an unknown kid: may refetch once (bounded by a cooldown); resolves to the key or undefined. */
  refreshFor?(kid: string): Promise<KeyObject | undefined>;
  /** False until the first key set has loaded (and, for a remote set, once it is older than maxStale). */
  ready(): boolean;
  /**
   * The key's declared JWK `alg`, when it has one: a token whose header `alg` differs is refused
   * (RFC 8725 §3.1, one algorithm per key). Optional: without it the key type decides.
   */
  alg?(kid: string): string | undefined;
}

/** Answers whether a verified token has been revoked (by jti, or by client before a time). */
export interface RevocationChecker {
  isRevoked(token: VerifiedToken): boolean;
  /** False when the set is older than the configured bound and policy is fail-closed. */
  usable(): boolean;
}

export interface VerifierOptions {
  readonly issuer: string;
  readonly audience: string;
  /** Pinned algorithms; never taken from the token. `none` and HMAC are refused at construction. */
  readonly algorithms: readonly string[];
  /** Seconds of tolerance on exp/iat; default 5. */
  readonly clockToleranceSec?: number;
  readonly keys: KeyResolver;
  readonly revocations: RevocationChecker;
  readonly clock?: Clock;
  /** Longest accepted `exp - iat` in seconds (spec maximum 3600); default 3600. */
  readonly maxTokenLifetimeSec?: number;
  /** Verified-token cache bounds; `maxEntries: 0` disables it. Defaults 100,000 entries, 64 MiB. */
  readonly tokenCache?: { readonly maxEntries?: number; readonly maxBytes?: number };
  /** Cache of tokens that failed format/signature/claims; defaults 10,000 entries for 30 s. */
  readonly negativeCache?: { readonly maxEntries?: number; readonly ttlSec?: number };
  /** Longest accepted token (characters); default 8192. Longer values are refused unparsed. */
  readonly maxTokenLength?: number;
  /**
   * Check the signatures of cache misses back to back at the end of the event-loop turn instead
   * of one by one: misses then answer with a Promise, hits and refusals stay synchronous. Under
   * load this halves the CPU of a verification (warm CPU caches); a server host wants it, a
   * caller that needs synchronous answers does not. Default false.
   */
  readonly batchSignatureChecks?: boolean;
  /** Accept DPoP-bound tokens presented as `Authorization: DPoP` with a proof (RFC 9449). */
  readonly dpop?: DpopOptions;
}

/** What a DPoP-presented request shows beside its token (RFC 9449 §7). */
export interface DpopRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** DPoP at a resource server (RFC 9449 §7); without it `Authorization: DPoP` is not accepted. */
export interface DpopOptions {
  /** The URL the client addressed (`htu`), as it saw it behind any proxy: scheme, host and path. */
  readonly htu: (request: DpopRequest) => string | undefined;
  /** How far a proof's `iat` may be from now, either way (seconds); default 60. */
  readonly iatWindowSec?: number;
  /** Where accepted proofs are recorded; default an in-memory cache of this process. */
  readonly replay?: import('./dpop/replay-cache.ts').DpopReplayCache;
  /** Server nonces (RFC 9449 §9, `createDpopNonces`); default none: a proof's `nonce` is ignored. */
  readonly nonces?: import('./dpop/nonce.ts').DpopNonces | undefined;
}

/** What `createVerifier` returns: synchronous unless an unknown kid needs the one refetch. */
export interface Verifier {
  /**
   * `request` is read only for `Authorization: DPoP` (its `DPoP` header, method and URL), which
   * needs `dpop` in the options; such a request answers with a Promise when its token or its
   * replay cache needs one (a signature batch, a refetch, a shared replay cache).
   */
  authorize(
    authorization: string | undefined,
    requirement: RouteRequirement,
    request?: DpopRequest,
  ): AuthDecision | Promise<AuthDecision>;
  /**
   * A token on its own, as an introspection endpoint (RFC 7662) asks about it: every check of
   * `authorize` (signature, claims, expiry, revocation) except how it was presented and a route's
   * scopes, so a DPoP-bound token needs no proof. Synchronous unless an unknown kid needs the refetch.
   */
  inspect(token: string): AuthDecision | Promise<AuthDecision>;
  /** Running counters for metrics (cache hit ratio, signatures checked). Optional for test doubles. */
  stats?(): VerifierStats;
}

export interface VerifierStats {
  /** Requests answered from the verified-token cache. */
  readonly tokenCacheHits: number;
  /** Requests answered from the negative cache (no crypto spent). */
  readonly negativeCacheHits: number;
  /** Signature verifications performed (cache misses that reached crypto). */
  readonly signaturesChecked: number;
}

/** The HTTP answer for a failure (built only by `authFailureResponse`). */
export interface AuthHttpResponse {
  readonly status: number;
  readonly headers: { readonly 'www-authenticate': string; readonly 'dpop-nonce'?: string };
  readonly body: ApiErrorBody;
}
