import type { KeyObject } from 'node:crypto';
import { type Clock, systemClock } from '#common';
import { createDoorkeeper } from '../admission.ts';
import { keyFitsAlgorithm, pinAlgorithms, type SupportedAlgorithm } from '../algorithms.ts';
import type { CompactJws } from '../compact.ts';
import { describeValue } from '../describe.ts';
import { fail } from '../failure.ts';
import { fingerprint } from '../fingerprint.ts';
import { createNegativeCache } from '../negative-cache.ts';
import { scopesSatisfy } from '../scope-check.ts';
import { verifySignature } from '../signature.ts';
import { createTokenCache } from '../token-cache.ts';
import { checkTokenHeader } from '../token-header.ts';
import type { AuthDecision, AuthFailure, RouteRequirement, VerifiedToken, VerifierStats } from '../types.ts';
import { mapClaims } from './claim-mapping.ts';
import { createIntrospected } from './introspected.ts';
import type { ExternalIssuerOptions, ExternalVerifier } from './types.ts';

const NEGATIVE_BYTES = 8 * 1024 * 1024;

/** `at+jwt`, `application/at+jwt` and `AT+JWT` alike (RFC 7515 §4.1.9). */
function normalType(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

function audienceMatches(aud: unknown, audience: string): boolean {
  if (typeof aud === 'string') return aud === audience;
  return Array.isArray(aud) && aud.length <= 16 && aud.includes(audience);
}

/**
 * One external issuer's JWT access tokens: its own key set, pinned algorithms, `typ` values,
 * audience and claim mapping, its own verified and negative caches. The pipeline is the own
 * verifier's less what only tokengate's tokens have (revocation list, client generations, DPoP):
 * cache → header (pinned alg, kid, typ) → key by kid (unknown → the key set's one refetch) →
 * signature → iss/aud → claims → not-before → expiry → scope.
 */
export function createExternalVerifier(options: ExternalIssuerOptions): ExternalVerifier {
  const pinned = pinAlgorithms(options.algorithms);
  const clock: Clock = options.clock ?? systemClock;
  const { keys, name, issuer, audience } = options;
  const toleranceSec = options.clockToleranceSec;
  const types = new Set(options.tokenTypes.map(normalType));
  const tokens = createTokenCache(
    clock,
    options.tokenCache?.maxEntries ?? 10_000,
    options.tokenCache?.maxBytes ?? 2 ** 24,
  );
  const rejected = createNegativeCache(
    clock,
    options.negativeCache?.maxEntries ?? 10_000,
    options.negativeCache?.ttlSec ?? 30,
    NEGATIVE_BYTES,
  );
  const doorkeeper = createDoorkeeper(1 << 16);
  const headers = new Map<string, Record<string, unknown>>();
  const stats = { tokenCacheHits: 0, negativeCacheHits: 0, signaturesChecked: 0 };

  function remember(raw: string, fp: number, failure: AuthFailure): AuthFailure {
    rejected.set(raw, fp, failure);
    return failure;
  }

  function decide(token: VerifiedToken, requirement: RouteRequirement, raw: string, fp: number): AuthDecision {
    if (clock.now() >= (token.exp + toleranceSec) * 1000)
      return remember(raw, fp, { ok: false, kind: 'token_expired', detail: 'exp passed', expiredAt: token.exp });
    if (!scopesSatisfy(token, requirement))
      return { ok: false, kind: 'insufficient_scope', detail: `has ${token.scopes.join(' ')}`, required: requirement };
    return { ok: true, token };
  }

  function headerFailure(header: Record<string, unknown>): AuthFailure | undefined {
    const typ = header['typ'];
    if (typeof typ !== 'string' || !types.has(normalType(typ)))
      return fail('invalid_token', `typ ${describeValue(typ, 40)} not accepted`);
    if (header['crit'] !== undefined) return fail('invalid_token', 'crit header present');
    if (header['b64'] !== undefined && header['b64'] !== true) return fail('invalid_token', 'b64 header present');
    return undefined;
  }

  function finish(
    raw: string,
    fp: number,
    jws: CompactJws,
    kid: string,
    alg: SupportedAlgorithm,
    key: KeyObject,
    requirement: RouteRequirement,
  ): AuthDecision {
    const declared = keys.alg?.(kid);
    if ((declared !== undefined && declared !== alg) || !keyFitsAlgorithm(key, alg))
      return remember(raw, fp, fail('invalid_token', `key ${kid} does not fit ${alg}`));
    stats.signaturesChecked += 1;
    if (!verifySignature(alg, key, jws.signingInput, jws.signature))
      return remember(raw, fp, fail('invalid_token', 'bad signature'));
    const { payload } = jws;
    if (payload['iss'] !== issuer) return remember(raw, fp, fail('invalid_token', 'iss mismatch'));
    if (!audienceMatches(payload['aud'], audience)) return remember(raw, fp, fail('invalid_token', 'aud mismatch'));
    const mapped = mapClaims(payload, options.claims, name, options.maxTokenLifetimeSec);
    if (!mapped.ok) return remember(raw, fp, mapped);
    const { token } = mapped;
    // Heals with time (the issuer's clock ahead of ours): never remembered.
    const nowSec = Math.floor(clock.now() / 1000);
    const nbf = payload['nbf'];
    if (token.iat > nowSec + toleranceSec) return fail('invalid_token', 'iat in the future');
    if (typeof nbf === 'number' && nbf > nowSec + toleranceSec) return fail('invalid_token', 'nbf in the future');
    if (doorkeeper.seenBefore(fp)) tokens.set(raw, fp, { token, kid, key }, (token.exp + toleranceSec) * 1000);
    return decide(token, requirement, raw, fp);
  }

  async function afterRefetch(
    raw: string,
    fp: number,
    jws: CompactJws,
    kid: string,
    alg: SupportedAlgorithm,
    requirement: RouteRequirement,
  ): Promise<AuthDecision> {
    const key = await keys.refreshFor?.(kid).catch(() => undefined);
    if (key !== undefined) return finish(raw, fp, jws, kid, alg, key, requirement);
    return keys.ready()
      ? fail('invalid_token', `unknown kid ${kid.slice(0, 64)}`)
      : fail('keys_unavailable', `no usable key set for issuer ${name}`);
  }

  function verifyJwt(raw: string, requirement: RouteRequirement): AuthDecision | Promise<AuthDecision> {
    const fp = fingerprint(raw);
    const hit = tokens.get(raw, fp);
    if (hit !== undefined && keys.get(hit.kid) === hit.key) {
      stats.tokenCacheHits += 1;
      return decide(hit.token, requirement, raw, fp);
    }
    const known = rejected.get(raw, fp);
    if (known !== undefined) {
      stats.negativeCacheHits += 1;
      return known;
    }
    const checked = checkTokenHeader(raw, headers, pinned, headerFailure);
    if (!checked.ok) return remember(raw, fp, checked);
    const { jws, alg, kid } = checked;
    const key = keys.get(kid);
    if (key !== undefined) return finish(raw, fp, jws, kid, alg, key, requirement);
    if (!keys.ready()) return fail('keys_unavailable', `key set of issuer ${name} not loaded or past maxStale`);
    if (keys.refreshFor === undefined) return fail('invalid_token', `unknown kid ${kid.slice(0, 64)}`);
    return afterRefetch(raw, fp, jws, kid, alg, requirement);
  }

  const introspected =
    options.introspection === undefined
      ? undefined
      : createIntrospected({
          name,
          claims: options.claims,
          maxTokenLifetimeSec: options.maxTokenLifetimeSec,
          toleranceSec,
          clock,
          use: options.introspection,
        });
  // With `tokens: all`, a JWT that passed every local check is also asked about at its issuer.
  const verify =
    introspected === undefined || options.introspection?.tokens !== 'all'
      ? verifyJwt
      : (raw: string, requirement: RouteRequirement): AuthDecision | Promise<AuthDecision> => {
          const local = verifyJwt(raw, requirement);
          return local instanceof Promise
            ? local.then((settled) => introspected.stillActive(raw, settled))
            : introspected.stillActive(raw, local);
        };
  return {
    name,
    issuer,
    verify,
    verifyOpaque: introspected?.opaque,
    stats: (): VerifierStats => ({ ...stats }),
  };
}
