import type { Clock } from '#common';
import type { AuthDecision, KeyResolver, RouteRequirement, VerifierStats } from '../types.ts';
import type { ClaimMapping } from './claim-mapping.ts';
import type { IntrospectionUse } from './introspected.ts';

/** One external authorization server whose JWT access tokens routes may accept. */
export interface ExternalIssuerOptions {
  /** The configured name: metrics label, identity header, and the project when none is mapped. */
  readonly name: string;
  /** The exact `iss` its tokens carry. */
  readonly issuer: string;
  readonly audience: string;
  /** Pinned; never taken from the token. */
  readonly algorithms: readonly string[];
  readonly clockToleranceSec: number;
  readonly maxTokenLifetimeSec: number;
  /** Accepted header `typ` values (case and an `application/` prefix ignored). */
  readonly tokenTypes: readonly string[];
  readonly claims: ClaimMapping;
  /** This issuer's keys alone. */
  readonly keys: KeyResolver;
  readonly clock?: Clock | undefined;
  readonly tokenCache?: { readonly maxEntries: number; readonly maxBytes: number } | undefined;
  readonly negativeCache?: { readonly maxEntries: number; readonly ttlSec: number } | undefined;
  /** RFC 7662 for its opaque tokens (and, with `tokens: all`, its JWTs). */
  readonly introspection?: IntrospectionUse | undefined;
}

/** Verifies one external issuer's tokens; `raw` is the token without its scheme. */
export interface ExternalVerifier {
  readonly name: string;
  readonly issuer: string;
  verify(raw: string, requirement: RouteRequirement): AuthDecision | Promise<AuthDecision>;
  /** Only for an issuer with introspection: a token that is not a JWT. */
  readonly verifyOpaque?:
    | ((raw: string, requirement: RouteRequirement) => AuthDecision | Promise<AuthDecision>)
    | undefined;
  stats(): VerifierStats;
}
