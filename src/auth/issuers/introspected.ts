import type { Clock } from '#common';
import { fail } from '../failure.ts';
import { scopesSatisfy } from '../scope-check.ts';
import type { AuthDecision, RouteRequirement, VerifiedToken } from '../types.ts';
import { type ClaimMapping, mapClaims } from './claim-mapping.ts';
import type { IntrospectionResult, Introspector } from './introspection.ts';

/** How one external issuer's tokens are introspected (gateway.yaml `introspection`). */
export interface IntrospectionUse {
  readonly introspector: Introspector;
  /** `opaque`: only tokens that are not JWTs; `all`: verified JWTs too (revocable JWTs). */
  readonly tokens: 'opaque' | 'all';
  /** A verified JWT is accepted when the endpoint fails; an opaque token never is. */
  readonly failOpen: boolean;
  /** What an answer without `exp` is good for. */
  readonly cacheMaxSec: number;
}

interface Context {
  readonly name: string;
  readonly claims: ClaimMapping;
  readonly maxTokenLifetimeSec: number;
  readonly toleranceSec: number;
  readonly clock: Clock;
  readonly use: IntrospectionUse;
}

/**
 * Opaque tokens through RFC 7662, and verified JWTs checked for revocation. An answer's claims
 * are mapped as a JWT's are (`sub` defaults to the client, as in client-credentials answers);
 * the token built from one cached answer is reused, so a cached answer costs no I/O and no
 * allocation.
 */
export function createIntrospected(context: Context) {
  const { use, clock } = context;
  const built = new WeakMap<object, ReturnType<typeof mapClaims>>();

  function tokenOf(claims: Readonly<Record<string, unknown>>): ReturnType<typeof mapClaims> {
    let mapped = built.get(claims);
    if (mapped === undefined) {
      const nowSec = Math.floor(clock.now() / 1000);
      const payload = {
        ...claims,
        sub: claims['sub'] ?? claims[context.claims.client],
        iat: claims['iat'] ?? nowSec,
        exp: claims['exp'] ?? nowSec + use.cacheMaxSec,
      };
      mapped = mapClaims(payload, context.claims, context.name, context.maxTokenLifetimeSec);
      built.set(claims, mapped);
    }
    return mapped;
  }

  function opaqueDecision(result: IntrospectionResult, requirement: RouteRequirement): AuthDecision {
    if (result.active === 'unavailable') return fail('introspection_unavailable', result.detail);
    if (!result.active) return fail('invalid_token', `introspection: ${result.detail}`);
    const mapped = tokenOf(result.claims);
    if (!mapped.ok) return mapped;
    return checked(mapped.token, requirement);
  }

  function checked(token: VerifiedToken, requirement: RouteRequirement): AuthDecision {
    if (clock.now() >= (token.exp + context.toleranceSec) * 1000)
      return { ok: false, kind: 'token_expired', detail: 'exp passed', expiredAt: token.exp };
    if (!scopesSatisfy(token, requirement))
      return { ok: false, kind: 'insufficient_scope', detail: `has ${token.scopes.join(' ')}`, required: requirement };
    return { ok: true, token };
  }

  function activeDecision(result: IntrospectionResult, verified: AuthDecision): AuthDecision {
    if (result.active === 'unavailable')
      return use.failOpen ? verified : fail('introspection_unavailable', result.detail);
    return result.active ? verified : fail('token_revoked', `introspection: ${result.detail}`);
  }

  return {
    /** A token that is no JWT: only the issuer can say what it is. */
    opaque(raw: string, requirement: RouteRequirement): AuthDecision | Promise<AuthDecision> {
      const result = use.introspector.introspect(raw);
      return result instanceof Promise
        ? result.then((settled) => opaqueDecision(settled, requirement))
        : opaqueDecision(result, requirement);
    },
    /** A JWT that passed every local check: still active at its issuer? (`tokens: all`) */
    stillActive(raw: string, verified: AuthDecision): AuthDecision | Promise<AuthDecision> {
      if (!verified.ok || use.tokens !== 'all') return verified;
      const result = use.introspector.introspect(raw);
      return result instanceof Promise
        ? result.then((settled) => activeDecision(settled, verified))
        : activeDecision(result, verified);
    },
  };
}
