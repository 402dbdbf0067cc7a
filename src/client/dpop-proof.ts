import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { DpopSigner } from './dpop-key.ts';

/** What one proof is for (RFC 9449 §4.2). */
export interface ProofClaims {
  /** The request method as it goes on the wire. */
  readonly htm: string;
  /** The request URL; its query and fragment are left out of `htu`. */
  readonly url: URL;
  readonly nowMs: number;
  /** At a resource: the access token, whose hash becomes `ath`. */
  readonly accessToken?: string | undefined;
  /** The server's latest `DPoP-Nonce`, when it gave one. */
  readonly nonce?: string | undefined;
}

/** A DPoP proof JWT: `typ: dpop+jwt`, the public key as `jwk`, a fresh random `jti`. */
export function signProof(signer: DpopSigner, claims: ProofClaims): Promise<string> {
  const payload: Record<string, string> = { htm: claims.htm, htu: htu(claims.url) };
  if (claims.accessToken !== undefined) payload['ath'] = accessTokenHash(claims.accessToken);
  if (claims.nonce !== undefined) payload['nonce'] = claims.nonce;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: signer.alg, typ: 'dpop+jwt', jwk: signer.jwk })
    .setIssuedAt(Math.floor(claims.nowMs / 1000))
    .setJti(randomBytes(16).toString('base64url'))
    .sign(signer.privateKey);
}

/** RFC 9449 §4.2: the URL without query and fragment. */
export function htu(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** `ath`: base64url SHA-256 of the token's ASCII. */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token, 'ascii').digest('base64url');
}

/** The methods fetch upper-cases (Fetch standard, "normalize a method"); others go out as given. */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/** The method fetch sends for `init.method`, so that `htm` names what the server sees. */
export function wireMethod(method: string | undefined): string {
  if (method === undefined) return 'GET';
  const upper = method.toUpperCase();
  return NORMALIZED_METHODS.has(upper) ? upper : method;
}
