import type { Clock, Logger } from '#common';
import { IssuerInputError } from '../issuer-errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import { readOwnToken } from '../tokens/own-token.ts';
import type { Revoker } from './revoker.ts';

/** Our jtis are 22 base64url characters; accept that alphabet, bounded. */
const JTI = /^[A-Za-z0-9_-]{1,128}$/;

export interface AdminRevokeContext {
  readonly keyring: Keyring;
  readonly revoker: Revoker;
  readonly issuer: string;
  readonly audience: string;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * `tokengate admin token revoke JWT_OR_JTI`: a compact JWT is revoked by its jti only after our
 * signature is checked (a forged token is refused, not blindly recorded); a bare jti is revoked
 * for the longest lifetime a token can have. An expired token of ours needs nothing.
 */
export async function adminRevoke(jwtOrJti: string, ctx: AdminRevokeContext): Promise<void> {
  const value = jwtOrJti.trim();
  if (value.includes('.')) {
    const claims = await readOwnToken(value, ctx);
    if (!claims)
      throw new IssuerInputError('not a token issued by this issuer (signature, issuer or audience do not match)');
    if (claims.expired) {
      ctx.log.info({ jti: claims.jti }, 'revocation skipped: token already expired');
      return;
    }
    return ctx.revoker.revokeJti(claims.jti, claims.exp);
  }
  if (!JTI.test(value)) throw new IssuerInputError('expected a JWT or a jti (base64url, at most 128 characters)');
  return ctx.revoker.revokeJti(value);
}
