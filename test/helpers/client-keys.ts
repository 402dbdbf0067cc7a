import { randomBytes } from 'node:crypto';
import { type CryptoKey, exportJWK, type JWTPayload, SignJWT } from 'jose';
import { pooledKeyPair } from './key-pool.ts';

/** A client's key pair as private_key_jwt uses it: the public JWK (with kid) is registered, the private key signs. */
export interface ClientKey {
  readonly kid: string;
  readonly alg: 'RS256' | 'PS256' | 'ES256' | 'EdDSA';
  readonly publicJwk: Record<string, unknown>;
  readonly privateKey: CryptoKey;
}

export async function clientKey(alg: ClientKey['alg'] = 'ES256', kid = `k-${alg}-${randomBytes(4).toString('hex')}`) {
  const { publicKey, privateKey } = await pooledKeyPair(alg);
  const publicJwk = { ...(await exportJWK(publicKey)), kid };
  return { kid, alg, publicJwk, privateKey } satisfies ClientKey;
}

export const keySet = (...keys: ClientKey[]) => ({ keys: keys.map((key) => key.publicJwk) });

/**
 * An RFC 7523 client assertion: iss = sub = client id, aud, exp 60 s after `nowSec`, a fresh jti.
 * `claims` and `header` override or add members (undefined removes a claim).
 */
export async function clientAssertion(
  key: ClientKey,
  clientId: string,
  aud: string,
  nowSec: number,
  options: { claims?: Record<string, unknown>; header?: Record<string, unknown> } = {},
): Promise<string> {
  const base: Record<string, unknown> = {
    iss: clientId,
    sub: clientId,
    aud,
    iat: nowSec,
    exp: nowSec + 60,
    jti: randomBytes(12).toString('base64url'),
    ...options.claims,
  };
  const claims = Object.fromEntries(Object.entries(base).filter(([, value]) => value !== undefined)) as JWTPayload;
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, ...options.header }).sign(key.privateKey);
}
