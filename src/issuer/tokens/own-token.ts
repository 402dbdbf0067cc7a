import { errors, jwtVerify } from 'jose';
import type { Clock } from '#common';
import type { Keyring } from '../keys/keyring.ts';

export interface OwnTokenClaims {
  readonly jti: string;
  readonly clientId: string;
  readonly exp: number;
  /** Issue time (epoch seconds); +Infinity when absent (we always set it), so no client cut-off covers it. */
  readonly iat: number;
  /** `client_gen`, when the token carries one. */
  readonly clientGen?: number;
  /** True when the signature is ours but the token has expired (nothing left to revoke). */
  readonly expired: boolean;
}

/**
 * Reads the claims of a token only after checking it is one of ours: signature by a published
 * key (alg pinned to that key), issuer, audience and `typ`. Null for anything else.
 */
export async function readOwnToken(
  token: string,
  ctx: { keyring: Keyring; issuer: string; audience: string; clock: Clock },
): Promise<OwnTokenClaims | null> {
  if (token.length > 8192) return null;
  const getKey = (header: { kid?: string; alg?: string }) => {
    const found = header.kid === undefined ? undefined : ctx.keyring.publicKey(header.kid);
    if (!found || found.alg !== header.alg) throw new errors.JWKSNoMatchingKey();
    return found.key;
  };
  try {
    const { payload } = await jwtVerify(token, getKey, {
      issuer: ctx.issuer,
      audience: ctx.audience,
      typ: 'at+jwt',
      algorithms: ['RS256', 'ES256', 'EdDSA'],
      currentDate: new Date(ctx.clock.now()),
    });
    return claims(payload, false);
  } catch (error) {
    if (error instanceof errors.JWTExpired) return claims(error.payload, true);
    return null;
  }
}

function claims(payload: Record<string, unknown>, expired: boolean): OwnTokenClaims | null {
  const { jti, client_id: clientId, exp, iat, client_gen: clientGen } = payload;
  if (typeof jti !== 'string' || typeof clientId !== 'string' || typeof exp !== 'number') return null;
  const known = { jti, clientId, exp, iat: typeof iat === 'number' ? iat : Number.POSITIVE_INFINITY, expired };
  return typeof clientGen === 'number' ? { ...known, clientGen } : known;
}
