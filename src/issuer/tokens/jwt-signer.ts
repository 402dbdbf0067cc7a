import { type KeyObject, sign } from 'node:crypto';
import type { SigningAlg } from '../keys/algorithms.ts';

/**
 * Compact JWS signing with node:crypto directly: the header is encoded once per key and the
 * private KeyObject is imported once, so a token costs one JSON.stringify, one base64url and
 * one signature (jose's generic path re-validates the key and header on every call).
 */
export interface JwtSigner {
  readonly kid: string;
  readonly alg: SigningAlg;
  sign(claims: Readonly<Record<string, unknown>>): string;
}

export function createJwtSigner(kid: string, alg: SigningAlg, privateKey: KeyObject): JwtSigner {
  const header = Buffer.from(JSON.stringify({ alg, typ: 'at+jwt', kid })).toString('base64url');
  const signWith = signatureFunction(alg, privateKey);
  return {
    kid,
    alg,
    sign(claims) {
      const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return `${input}.${signWith(Buffer.from(input)).toString('base64url')}`;
    },
  };
}

function signatureFunction(alg: SigningAlg, key: KeyObject): (data: Buffer) => Buffer {
  if (alg === 'RS256') return (data) => sign('sha256', data, key);
  // JWS wants the raw r||s form (RFC 7518 §3.4), not DER.
  if (alg === 'ES256') return (data) => sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
  return (data) => sign(null, data, key);
}
