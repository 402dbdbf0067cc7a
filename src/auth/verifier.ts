import type { KeyObject } from 'node:crypto';
import { type Clock, systemClock } from '#common';
import { createDoorkeeper } from './admission.ts';
import { createBatch } from './batch.ts';
import { keyFitsAlgorithm, pinAlgorithms, type SupportedAlgorithm } from './algorithms.ts';
import { checkClaims, checkHeader, type ClaimRules, notYetValid } from './claims.ts';
import type { CompactJws } from './compact.ts';
import { extractBearer } from './extractor.ts';
import { fail } from './failure.ts';
import { fingerprint } from './fingerprint.ts';
import { perKeyMemo } from './key-memo.ts';
import { createNegativeCache } from './negative-cache.ts';
import { scopesSatisfy } from './scope-check.ts';
import { verifySignature } from './signature.ts';
import { createTokenCache } from './token-cache.ts';
import { checkTokenHeader } from './token-header.ts';
import { createDpopCheck, isDpopScheme } from './dpop/resource.ts';
import type {
  AuthDecision,
  AuthFailure,
  DpopRequest,
  RouteRequirement,
  VerifiedToken,
  Verifier,
  VerifierOptions,
} from './types.ts';
import { checkVerifierOptions } from './verifier-options.ts';

/**
 * The verification pipeline, in this order: extract → verified-token cache (a token is admitted
 * on its second sighting) → negative cache → header (typ, pinned alg, kid) → key by kid (unknown → one refetch) → signature → iss/aud/claims
 * → expiry → revocation → scope. Synchronous except when an unknown kid needs the refetch, or,
 * with `batchSignatureChecks`, when a signature must be checked (batch.ts).
 */
export function createVerifier(options: VerifierOptions): Verifier {
  const config = checkVerifierOptions(options);
  const pinned = pinAlgorithms(options.algorithms);
  const { keys, revocations } = options;
  const clock: Clock = options.clock ?? systemClock;
  const toleranceMs = config.toleranceSec * 1000;
  const rules: ClaimRules = {
    issuer: options.issuer,
    audience: options.audience,
    toleranceSec: config.toleranceSec,
    maxLifetimeSec: config.maxLifetimeSec,
  };
  const tokens = createTokenCache(clock, config.tokenCacheEntries, config.tokenCacheBytes);
  const doorkeeper = createDoorkeeper();
  const batch = options.batchSignatureChecks === true ? createBatch() : undefined;
  const rejected = createNegativeCache(clock, config.negativeEntries, config.negativeTtlSec, config.negativeBytes);
  const fits = perKeyMemo(keyFitsAlgorithm);
  const headers = new Map<string, Record<string, unknown>>();
  const stats = { tokenCacheHits: 0, negativeCacheHits: 0, signaturesChecked: 0 };
  const dpop = options.dpop === undefined ? undefined : createDpopCheck(options.dpop, clock, config.maxTokenLength);

  function remember(raw: string, fp: number, failure: AuthFailure): AuthFailure {
    rejected.set(raw, fp, failure);
    return failure;
  }

  function keyAccepts(key: KeyObject, kid: string, alg: SupportedAlgorithm): boolean {
    const declared = keys.alg?.(kid);
    if (declared !== undefined && declared !== alg) return false;
    return fits(key, alg);
  }

  /** Expiry, then revocation, then scope: the checks a cached token still has to pass. */
  function decide(
    token: VerifiedToken,
    requirement: RouteRequirement,
    raw: string,
    fp: number,
    presented: Presentation,
  ): AuthDecision {
    // RFC 9449 §7.1: a DPoP-bound token is no bearer token; the thief of one has no key. The
    // challenge is DPoP's: the only way this token can be used.
    if (token.jkt !== undefined && presented === 'bearer')
      return { ...fail('invalid_token', 'DPoP-bound token presented as Bearer'), dpop: true };
    if (token.jkt === undefined && presented === 'dpop')
      return fail('invalid_token', 'unbound token presented as DPoP');
    if (clock.now() >= token.exp * 1000 + toleranceMs) {
      return remember(raw, fp, { ok: false, kind: 'token_expired', detail: 'exp passed', expiredAt: token.exp });
    }
    if (!revocations.usable()) return fail('revocations_stale', 'revocation set is stale (fail-closed)');
    if (revocations.isRevoked(token)) return fail('token_revoked', 'jti or client revoked');
    if (!scopesSatisfy(token, requirement)) {
      return { ok: false, kind: 'insufficient_scope', detail: `has ${token.scopes.join(' ')}`, required: requirement };
    }
    return { ok: true, token };
  }

  function finish(
    raw: string,
    fp: number,
    jws: CompactJws,
    kid: string,
    alg: SupportedAlgorithm,
    key: KeyObject,
    requirement: RouteRequirement,
    presented: Presentation,
  ): AuthDecision {
    if (!keyAccepts(key, kid, alg)) return remember(raw, fp, fail('invalid_token', `key ${kid} does not fit ${alg}`));
    stats.signaturesChecked += 1;
    if (!verifySignature(alg, key, jws.signingInput, jws.signature))
      return remember(raw, fp, fail('invalid_token', 'bad signature'));
    const claims = checkClaims(jws.payload, rules);
    if (!claims.ok) return remember(raw, fp, claims);
    const { token } = claims;
    const early = notYetValid(jws.payload, rules, Math.floor(clock.now() / 1000));
    if (early !== undefined) return early;
    // Cached from the second sighting on (admission.ts): single-use tokens cost no cache churn.
    if (doorkeeper.seenBefore(fp)) tokens.set(raw, fp, { token, kid, key }, token.exp * 1000 + toleranceMs);
    return decide(token, requirement, raw, fp, presented);
  }

  async function afterRefetch(
    raw: string,
    fp: number,
    jws: CompactJws,
    kid: string,
    alg: SupportedAlgorithm,
    requirement: RouteRequirement,
    presented: Presentation,
  ): Promise<AuthDecision> {
    const key = await keys.refreshFor?.(kid).catch(() => undefined);
    if (key !== undefined) return finish(raw, fp, jws, kid, alg, key, requirement, presented);
    return keys.ready()
      ? fail('invalid_token', `unknown kid ${kid.slice(0, 64)}`)
      : fail('keys_unavailable', 'no usable key set');
  }

  function authorize(
    authorization: string | undefined,
    requirement: RouteRequirement,
    request?: DpopRequest,
  ): AuthDecision | Promise<AuthDecision> {
    // parseCompact enforces base64url (a subset of b64token), so the extractor need not scan too.
    const raw = extractBearer(authorization, config.maxTokenLength, false);
    if (typeof raw === 'string') return verifyToken(authorization as string, raw, requirement, 'bearer');
    // Only a request that is not Bearer pays for the DPoP scheme test.
    if (dpop !== undefined && raw.kind === 'credentials_missing' && isDpopScheme(authorization))
      return dpop.authorize(authorization as string, requirement, request, verifyToken);
    return raw;
  }

  function verifyToken(
    authorization: string,
    raw: string,
    requirement: RouteRequirement,
    presented: Presentation,
  ): AuthDecision | Promise<AuthDecision> {
    const fp = fingerprint(authorization);
    // The verified cache first: a token is in both caches only if its key has changed since
    // (a hit needs kid to map to the very key that verified it), and then the failure wins.
    const hit = tokens.get(raw, fp);
    if (hit !== undefined && keys.get(hit.kid) === hit.key) {
      stats.tokenCacheHits += 1;
      return decide(hit.token, requirement, raw, fp, presented);
    }
    const known = rejected.get(raw, fp);
    if (known !== undefined) {
      stats.negativeCacheHits += 1;
      return known;
    }
    const checked = checkTokenHeader(raw, headers, pinned, checkHeader);
    if (!checked.ok) return remember(raw, fp, checked);
    const { jws, alg, kid } = checked;
    const key = keys.get(kid);
    if (key !== undefined) {
      // Decided with the key as it is now; only the signature check waits for the batch.
      return batch === undefined
        ? finish(raw, fp, jws, kid, alg, key, requirement, presented)
        : batch.run(() => finish(raw, fp, jws, kid, alg, key, requirement, presented));
    }
    if (!keys.ready()) return fail('keys_unavailable', 'key set not loaded or past maxStale');
    if (keys.refreshFor === undefined) return fail('invalid_token', `unknown kid ${kid.slice(0, 64)}`);
    return afterRefetch(raw, fp, jws, kid, alg, requirement, presented);
  }

  /**
   * The token alone, for an introspection endpoint (RFC 7662): the same caches and checks as
   * `authorize`, minus the two that belong to a request, how it was presented (a DPoP-bound token
   * needs no proof here) and a route's scopes.
   */
  function inspect(token: string): AuthDecision | Promise<AuthDecision> {
    if (typeof token !== 'string' || token === '') return fail('invalid_token', 'no token');
    if (token.length > config.maxTokenLength) return fail('invalid_token', 'token too long');
    return verifyToken(`Bearer ${token}`, token, ANY_TOKEN, 'inspection');
  }

  return { authorize, inspect, stats: () => ({ ...stats }) };
}

/** Any valid token: what an inspection asks, having no route. */
const ANY_TOKEN: RouteRequirement = { scopes: [], match: 'any' };

/**
 * How the token came: `Authorization: Bearer`, `Authorization: DPoP` with a proof, or handed to
 * `inspect` (no presentation to check).
 */
type Presentation = 'bearer' | 'dpop' | 'inspection';
