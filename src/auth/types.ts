import type { KeyObject } from 'node:crypto';
import type { ApiErrorBody, Clock, Logger, Scope } from '#common';

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
  | 'keys_unavailable'
  | 'revocations_stale'
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
   * needs `dpop` in the options; such a request always answers with a Promise.
   */
  authorize(
    authorization: string | undefined,
    requirement: RouteRequirement,
    request?: DpopRequest,
  ): AuthDecision | Promise<AuthDecision>;
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

/** Observable happenings of the key-set cache, for metrics and logs. */
export type KeySetEvent =
  | { readonly type: 'fetch_ok'; readonly keys: number; readonly maxAgeSec: number; readonly durationMs: number }
  | { readonly type: 'fetch_failed'; readonly reason: string; readonly durationMs: number }
  | { readonly type: 'stale_served'; readonly ageSec: number }
  | { readonly type: 'keys_unavailable'; readonly ageSec: number | null }
  | { readonly type: 'unknown_kid'; readonly refetched: boolean }
  | { readonly type: 'key_ignored'; readonly reason: string };

export interface KeySetStatus {
  readonly loaded: boolean;
  /** Seconds since the last successful fetch; null before the first. */
  readonly ageSec: number | null;
  /** True while serving keys past their max-age because refreshes fail. */
  readonly stale: boolean;
  readonly lastError: string | null;
  readonly keys: number;
}

export interface RemoteKeySetOptions {
  readonly url: string;
  /** Only keys that fit these (kty/crv/alg/use) are imported; default ['RS256']. */
  readonly algorithms?: readonly string[];
  readonly clock?: Clock;
  /** Default 5000. */
  readonly fetchTimeoutMs?: number;
  /** Bounds applied to the response's `Cache-Control: max-age`; defaults 30 and 3600. */
  readonly minMaxAgeSec?: number;
  readonly maxMaxAgeSec?: number;
  /** Least seconds between two unknown-kid refetches; default 30. */
  readonly cooldownSec?: number;
  /** How long past its max-age the last good set is served when the issuer is down; default 3600. */
  readonly maxStaleSec?: number;
  /** Largest accepted key-set response; default 256 KiB. */
  readonly maxResponseBytes?: number;
  /** How many unknown kids are remembered (not refetched again) until the next refresh; default 1000. */
  readonly unknownKidMemory?: number;
  readonly log?: Logger;
  readonly onEvent?: (event: KeySetEvent) => void;
}

export interface RemoteKeySet extends KeyResolver {
  refreshFor(kid: string): Promise<KeyObject | undefined>;
  /**
   * The kids the issuer says it publishes (its revocation feed carries them). Kids the set lacks are
   * fetched at once, past the unknown-kid cooldown, and a token bearing one may refetch past it too:
   * junk kids, which no issuer announces, cannot delay a genuine new key.
   */
  announce(kids: readonly string[]): void;
  /** Resolves after the first successful load, retrying with backoff until then; stop() rejects it. */
  start(): Promise<void>;
  /** Fetches now, joining a fetch already in flight; resolves when it settles (never rejects). */
  reload(): Promise<void>;
  stop(): void;
  status(): KeySetStatus;
}

/** A revocation as the feed carries it (same shape as the store's `Revocation`). */
export interface RevocationEntry {
  readonly kind: 'jti' | 'client';
  readonly value: string;
  /** For `client`: tokens issued at or before this epoch second are revoked (see `generation`). */
  readonly issuedBefore: number | null;
  /**
   * For `client`: the client's generation after the disable; tokens whose `client_gen` is lower
   * are revoked, and `issuedBefore` then applies only to tokens without `client_gen`. Absent or
   * null from an issuer that predates generations.
   */
  readonly generation?: number | null;
  /** Epoch seconds after which the entry can be forgotten. */
  readonly expiresAt: number;
}

export interface RevocationSetOptions {
  readonly clock?: Clock;
  /** Seconds without a sync after which the set counts as stale; default 30. */
  readonly maxStalenessSec?: number;
  /** When stale: keep answering from the last set (true) or refuse with 503 (false, default). */
  readonly failOpen?: boolean;
}

export interface RevocationSetStatus {
  readonly size: number;
  readonly synced: boolean;
  /** Seconds since the last sync; null before the first. */
  readonly lagSec: number | null;
  readonly stale: boolean;
}

export interface RevocationSet extends RevocationChecker {
  apply(entries: readonly RevocationEntry[]): void;
  markSynced(): void;
  status(): RevocationSetStatus;
}

/** What the issuer's feed says about its key set: a version that grows with each change, and the kids. */
export interface KeySetAnnouncement {
  readonly version: number;
  readonly kids: readonly string[];
}

export type RevocationFeedEvent =
  | { readonly type: 'sync_ok'; readonly entries: number; readonly cursor: number }
  | { readonly type: 'sync_failed'; readonly reason: string };

export interface RevocationFeedClientOptions {
  /** The feed URL, e.g. `http://127.0.0.1:3000/internal/revocations`. */
  readonly url: string;
  /** The feed credential, sent as `Authorization: Bearer`. */
  readonly token: string;
  readonly set: RevocationSet;
  readonly clock?: Clock;
  readonly log?: Logger;
  /** Long-poll hold asked of the issuer; default 20. */
  readonly waitSec?: number;
  /** Largest backoff after failures; default 5000. */
  readonly maxBackoffMs?: number;
  /** Largest accepted response; default 4 MiB. */
  readonly maxResponseBytes?: number;
  readonly onEvent?: (event: RevocationFeedEvent) => void;
  /**
   * Called with the kids of every key-set announcement the issuer sends beside the revocations (a
   * host passes them to its key set's `announce`). The client also sends the version it last saw,
   * so the issuer answers a held poll as soon as its key set changes.
   */
  readonly onKeys?: (kids: readonly string[]) => void;
}

export interface RevocationFeedClient {
  /** Resolves after the first successful sync (retrying until then). */
  start(): Promise<void>;
  stop(): void;
  status(): { readonly cursor: number; readonly lastError: string | null };
}
