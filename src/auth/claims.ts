import { isScope, type Scope } from '#common';
import { fail } from './failure.ts';
import type { AuthDecision, AuthFailure } from './types.ts';

/** RFC 9068 header type; `application/at+jwt` is the same media type. */
export const TOKEN_TYPE = 'at+jwt';
/** The claim naming the project a token belongs to (the issuer mints it under this name). */
export const PROJECT_ID_CLAIM = 'project_id';
/** The client's generation at issue (client-cut-off.ts); tokens of older issuers lack it. */
export const CLIENT_GENERATION_CLAIM = 'client_gen';

/** Header rules beyond alg/kid: RFC 9068 typ, and no extension we would have to understand. */
export function checkHeader(header: Record<string, unknown>): AuthFailure | undefined {
  const typ = header['typ'];
  if (typeof typ !== 'string') return fail('invalid_token', 'typ missing');
  const lower = typ.toLowerCase();
  if (lower !== TOKEN_TYPE && lower !== `application/${TOKEN_TYPE}`)
    return fail('invalid_token', `typ ${typ.slice(0, 40)}`);
  // We implement no critical extension, and b64:false (RFC 7797) would change the signing input.
  if (header['crit'] !== undefined) return fail('invalid_token', 'crit header present');
  if (header['b64'] !== undefined && header['b64'] !== true) return fail('invalid_token', 'b64 header present');
  return undefined;
}

export interface ClaimRules {
  readonly issuer: string;
  readonly audience: string;
  readonly toleranceSec: number;
  readonly maxLifetimeSec: number;
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 1024;
}

function audienceMatches(aud: unknown, audience: string): boolean {
  if (typeof aud === 'string') return aud === audience;
  return Array.isArray(aud) && aud.length <= 16 && aud.includes(audience);
}

/** Space-separated scopes, deduplicated; unknown names are dropped (they grant nothing here). */
function parseScopes(scope: unknown): Scope[] | undefined {
  if (scope === undefined) return [];
  if (typeof scope !== 'string' || scope.length > 1024) return undefined;
  const out: Scope[] = [];
  for (const name of scope.split(' ')) if (isScope(name) && !out.includes(name)) out.push(name);
  return out;
}

/**
 * Checks iss, aud, the presence and types of the required claims and the lifetime: what no
 * clock can change, so a failure here may be remembered (negative cache). Neither expiry nor
 * "not yet valid" is checked here: expiry comes after, so a token is only "expired" once we
 * know it is ours (a forged expired token is invalid, not expired); see `notYetValid`.
 */
export function checkClaims(payload: Record<string, unknown>, rules: ClaimRules): AuthDecision {
  if (payload['iss'] !== rules.issuer) return fail('invalid_token', 'iss mismatch');
  if (!audienceMatches(payload['aud'], rules.audience)) return fail('invalid_token', 'aud mismatch');
  const { sub, client_id: clientId, jti, iat, exp, nbf } = payload;
  const projectId = payload[PROJECT_ID_CLAIM];
  if (!isNonEmptyString(sub) || !isNonEmptyString(clientId) || !isNonEmptyString(jti) || !isNonEmptyString(projectId)) {
    return fail('invalid_token', 'sub, client_id, jti or project_id missing or not a string');
  }
  if (!isNumericDate(iat) || !isNumericDate(exp)) return fail('invalid_token', 'iat or exp missing or not an integer');
  if (exp <= iat || exp - iat > rules.maxLifetimeSec) return fail('invalid_token', 'lifetime out of bounds');
  if (nbf !== undefined && !isNumericDate(nbf)) return fail('invalid_token', 'nbf is not an integer');
  const scopes = parseScopes(payload['scope']);
  if (scopes === undefined) return fail('invalid_token', 'scope is not a string');
  const clientGen = payload[CLIENT_GENERATION_CLAIM];
  const cnf = payload['cnf'];
  if (clientGen === undefined && cnf === undefined)
    return { ok: true, token: { sub, clientId, projectId, scopes, jti, iat, exp, claims: payload } };
  if (clientGen !== undefined && (typeof clientGen !== 'number' || !Number.isSafeInteger(clientGen) || clientGen < 0))
    return fail('invalid_token', 'client_gen is not a non-negative integer');
  const jkt = cnf === undefined ? undefined : confirmationKey(cnf);
  if (jkt === null) return fail('invalid_token', 'cnf is not {jkt: SHA-256 thumbprint}');
  const token = {
    sub,
    clientId,
    projectId,
    scopes,
    jti,
    iat,
    exp,
    ...(clientGen === undefined ? {} : { clientGen: clientGen as number }),
    ...(jkt === undefined ? {} : { jkt }),
    claims: payload,
  };
  return { ok: true, token };
}

/** RFC 7638 SHA-256 thumbprint, base64url: 43 characters. */
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

/**
 * `cnf` (RFC 7800) as we issue it: `{jkt}` (RFC 9449 §6.1). Null for anything else: a
 * confirmation we cannot check must not be ignored, or the token would work as Bearer.
 */
function confirmationKey(cnf: unknown): string | null {
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf)) return null;
  const members = Object.keys(cnf);
  const jkt = (cnf as Record<string, unknown>)['jkt'];
  return members.length === 1 && typeof jkt === 'string' && THUMBPRINT.test(jkt) ? jkt : null;
}

/**
 * iat or nbf ahead of our clock by more than the tolerance (issuer's clock ahead of ours). Such
 * a failure heals with time, so it is never remembered: the same token is accepted once valid.
 * `payload` has passed checkClaims (iat is an integer; nbf, if present, too).
 */
export function notYetValid(
  payload: Record<string, unknown>,
  rules: ClaimRules,
  nowSec: number,
): AuthFailure | undefined {
  if ((payload['iat'] as number) > nowSec + rules.toleranceSec) return fail('invalid_token', 'iat in the future');
  const nbf = payload['nbf'];
  if (nbf !== undefined && (nbf as number) > nowSec + rules.toleranceSec)
    return fail('invalid_token', 'nbf in the future');
  return undefined;
}
