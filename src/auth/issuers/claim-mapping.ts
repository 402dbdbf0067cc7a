import { isScope, type Scope } from '#common';
import { fail } from '../failure.ts';
import type { AuthFailure, VerifiedToken } from '../types.ts';

/** How an external issuer's claims become tokengate's scopes and identity (gateway.yaml `claims`). */
export interface ClaimMapping {
  readonly scope: {
    readonly claim: string;
    /** `string`: names split by `separator` (RFC 9068 `scope`); `list`: a JSON array (`scp`, `roles`). */
    readonly format: 'string' | 'list';
    readonly separator: string;
    /** The issuer's names → tokengate's scopes; unset: only tokengate's own names count. */
    readonly map?: Readonly<Record<string, Scope>> | undefined;
  };
  /** The claim naming the client. */
  readonly client: string;
  /** The claim naming the project; unset: `fixedProject`. */
  readonly project?: string | undefined;
}

/** The most names a scope claim may hold, and the longest claim text read. */
const MAX_NAMES = 256;
const MAX_TEXT = 1024;

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function scopeOf(name: string, map: ClaimMapping['scope']['map']): Scope | undefined {
  if (map !== undefined) return Object.hasOwn(map, name) ? map[name] : undefined;
  return isScope(name) ? name : undefined;
}

/** The granted scopes, deduplicated; names neither mapped nor known grant nothing. Undefined: malformed claim. */
export function mappedScopes(value: unknown, rule: ClaimMapping['scope']): Scope[] | undefined {
  if (value === undefined) return [];
  let names: readonly unknown[];
  if (rule.format === 'string') {
    if (typeof value !== 'string' || value.length > MAX_TEXT * 4) return undefined;
    names = value.split(rule.separator);
  } else {
    if (!Array.isArray(value) || value.length > MAX_NAMES) return undefined;
    names = value;
  }
  const out: Scope[] = [];
  for (const name of names) {
    if (typeof name !== 'string') return undefined;
    const scope = scopeOf(name, rule.map);
    if (scope !== undefined && !out.includes(scope)) out.push(scope);
  }
  return out;
}

/**
 * An external token's payload (signature, iss and aud already checked) as a VerifiedToken:
 * `sub`, `iat` and `exp` are required (RFC 9068 §2.2), the client and project claims as mapped;
 * a missing `jti` is an empty one (nothing revokes external tokens by jti here). `issuer` is the
 * configured name, which the identity header carries so the upstream never takes another
 * issuer's client for one of tokengate's.
 */
export function mapClaims(
  payload: Readonly<Record<string, unknown>>,
  mapping: ClaimMapping,
  issuer: string,
  maxLifetimeSec: number,
): { readonly ok: true; readonly token: VerifiedToken } | AuthFailure {
  const { sub, iat, exp, nbf, jti } = payload;
  const clientId = payload[mapping.client];
  const projectId = mapping.project === undefined ? issuer : payload[mapping.project];
  if (!isText(sub) || !isText(clientId) || !isText(projectId))
    return fail('invalid_token', 'sub, client or project claim missing or not a string');
  if (jti !== undefined && !isText(jti)) return fail('invalid_token', 'jti is not a string');
  if (!isNumericDate(iat) || !isNumericDate(exp)) return fail('invalid_token', 'iat or exp missing or not an integer');
  if (exp <= iat || exp - iat > maxLifetimeSec) return fail('invalid_token', 'lifetime out of bounds');
  if (nbf !== undefined && !isNumericDate(nbf)) return fail('invalid_token', 'nbf is not an integer');
  // A confirmation this gateway cannot check (DPoP, mTLS) must not let the token pass as Bearer.
  if (payload['cnf'] !== undefined) return fail('invalid_token', 'sender-constrained external token');
  const scopes = mappedScopes(payload[mapping.scope.claim], mapping.scope);
  if (scopes === undefined) return fail('invalid_token', 'scope claim malformed');
  return { ok: true, token: { sub, clientId, projectId, scopes, jti: jti ?? '', iat, exp, issuer, claims: payload } };
}
