import { createLocalJWKSet, errors, type JSONWebKeySet, jwtVerify } from 'jose';
import { type Clock, epochSeconds } from '#common';
import type { ClientKeySet, UsedJtiStore } from '#store';
import { PATHS } from '../endpoints/paths.ts';
import { ASSERTION_SKEW_SEC, MAX_ASSERTION_LIFETIME_SEC } from '../limits.ts';

/** Pinned: asymmetric only (no `none`, no HMAC keyed with something public), as the metadata says. */
export const ASSERTION_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;

/** Longest jti we keep; a longer one is refused rather than stored. */
const MAX_JTI_LENGTH = 256;

export interface ClientAssertionDeps {
  /** Where a used jti is recorded, so a replay is refused on every replica. */
  readonly store: UsedJtiStore;
  readonly issuer: string;
  readonly clock: Clock;
}

/**
 * Verifies an RFC 7523 client assertion against a client's public keys: signature by the key its
 * `kid` names (one of the pinned algorithms), `iss` = `sub` = the client id, `aud` the token
 * endpoint URL or the issuer, `exp` present and at most 5 minutes ahead, `jti` used only once.
 * Resolves null when it holds, otherwise the reason for the log (never for the client).
 */
export class ClientAssertions {
  readonly #deps: ClientAssertionDeps;
  readonly #audiences: string[];

  constructor(deps: ClientAssertionDeps) {
    this.#deps = deps;
    const base = deps.issuer.replace(/\/+$/, '');
    // The revocation endpoint is also authenticated with it; RFC 7523 lets the issuer stand for both.
    this.#audiences = [
      ...new Set([deps.issuer, base, base + PATHS.token, base + PATHS.revoke, base + PATHS.introspect]),
    ];
  }

  async problem(assertion: string, clientId: string, jwks: ClientKeySet): Promise<string | null> {
    const { clock, store } = this.#deps;
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(assertion, createLocalJWKSet(jwks as JSONWebKeySet), {
        algorithms: [...ASSERTION_ALGORITHMS],
        issuer: clientId,
        subject: clientId,
        audience: this.#audiences,
        requiredClaims: ['exp', 'jti'],
        clockTolerance: ASSERTION_SKEW_SEC,
        currentDate: new Date(clock.now()),
      }));
    } catch (error) {
      return assertionFailure(error);
    }
    const now = epochSeconds(clock);
    const { exp, jti } = payload as { exp: number; jti: unknown };
    if (exp > now + MAX_ASSERTION_LIFETIME_SEC) return 'assertion expires more than 5 minutes ahead';
    if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) return 'assertion jti malformed';
    // Kept past exp by the skew, while a verifier could still take the assertion.
    const fresh = await store.claimJti(`assertion:${clientId}`, jti, exp + ASSERTION_SKEW_SEC);
    return fresh ? null : 'assertion replayed (jti already used)';
  }
}

function assertionFailure(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'assertion expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `assertion claim ${error.claim} invalid`;
  if (error instanceof errors.JWKSNoMatchingKey) return 'assertion kid names none of the client keys';
  if (error instanceof errors.JWKSMultipleMatchingKeys) return 'assertion names no kid and several keys match';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'assertion algorithm not allowed';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'assertion signature invalid';
  if (error instanceof errors.JOSEError) return `assertion invalid (${error.code})`;
  throw error;
}
