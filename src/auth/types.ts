import type { KeyObject } from 'node:crypto';
import type { Clock, Scope } from '#common';

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
}

/** Closed set of failures; `src/auth/response.ts` is the one place that maps them to HTTP. */
export type AuthFailureKind =
  | 'credentials_missing'
  | 'invalid_token'
  | 'token_revoked'
  | 'token_expired'
  | 'insufficient_scope'
  | 'keys_unavailable'
  | 'revocations_stale';

export interface AuthFailure {
  readonly ok: false;
  readonly kind: AuthFailureKind;
  /** Private detail for the log (which check failed, which kid); never sent to the client. */
  readonly detail: string;
  /** For token_expired: the token's exp (epoch seconds). */
  readonly expiredAt?: number;
  /** For insufficient_scope: what the route required. */
  readonly required?: RouteRequirement;
}

export interface AuthSuccess {
  readonly ok: true;
  readonly token: VerifiedToken;
}

export type AuthDecision = AuthSuccess | AuthFailure;

/** Where verification keys come from: a remote JWKS cache (gateway) or the issuer's own keys (upstream). */
export interface KeyResolver {
  /** The key for a kid, or undefined when it is not (yet) known. Synchronous: no I/O on the hot path. */
  get(kid: string): KeyObject | undefined;
  /** Called on an unknown kid: may refetch once (bounded by a cooldown); resolves to the key or undefined. */
  refreshFor?(kid: string): Promise<KeyObject | undefined>;
  /** False until the first key set has loaded. */
  ready(): boolean;
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
}
