import { createHash, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, type CryptoKey, exportJWK, SignJWT } from 'jose';
import { pooledKeyPair } from './key-pool.ts';

/** A DPoP key pair as a client holds it: the public JWK goes in every proof's header. */
export interface DpopKey {
  readonly alg: 'ES256' | 'EdDSA' | 'RS256' | 'PS256';
  readonly publicJwk: Record<string, unknown>;
  readonly privateKey: CryptoKey;
  /** RFC 7638 thumbprint: the `cnf.jkt` of tokens bound to this key. */
  readonly jkt: string;
}

export async function dpopKey(alg: DpopKey['alg'] = 'ES256'): Promise<DpopKey> {
  const { publicKey, privateKey } = await pooledKeyPair(alg);
  const publicJwk = (await exportJWK(publicKey)) as Record<string, unknown>;
  return { alg, publicJwk, privateKey, jkt: await calculateJwkThumbprint(publicJwk) };
}

export const athOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * A DPoP proof (RFC 9449 §4.2) for `htm` `htu`, iat now, a fresh jti; `token` adds its `ath`.
 * `claims` and `header` override or add members (undefined removes one).
 */
export async function dpopProof(
  key: DpopKey,
  htm: string,
  htu: string,
  options: {
    token?: string;
    nowSec?: number;
    claims?: Record<string, unknown>;
    header?: Record<string, unknown>;
  } = {},
): Promise<string> {
  const base: Record<string, unknown> = {
    htm,
    htu,
    iat: options.nowSec ?? Math.floor(Date.now() / 1000),
    jti: randomBytes(12).toString('base64url'),
    ...(options.token === undefined ? {} : { ath: athOf(options.token) }),
    ...options.claims,
  };
  const claims = Object.fromEntries(Object.entries(base).filter(([, value]) => value !== undefined));
  const header = Object.fromEntries(
    Object.entries({ alg: key.alg, typ: 'dpop+jwt', jwk: key.publicJwk, ...options.header }).filter(
      ([, value]) => value !== undefined,
    ),
  );
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key.privateKey);
}
