import { generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';

export const BENCH_ISSUER = 'http://bench.issuer';
export const BENCH_AUDIENCE = 'http://bench.api';

export interface BenchKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly jwks: string;
}

export function benchKey(): BenchKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'bench-1';
  const jwks = JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] });
  return { kid, privateKey, publicKey, jwks };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Pre-mints `count` distinct RS256 access tokens (distinct jti) valid for an hour; `boundTo`
 * gives token `i` the `cnf.jkt` of a DPoP key, so it is accepted only with a proof by that key.
 */
export function mintTokens(key: BenchKey, count: number, boundTo?: (i: number) => string): string[] {
  const header = b64({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' });
  const iat = Math.floor(Date.now() / 1000);
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const claims = {
      iss: BENCH_ISSUER,
      aud: BENCH_AUDIENCE,
      sub: `client-${i % 500}`,
      client_id: `client-${i % 500}`,
      project_id: 'p1',
      scope: 'address phone email',
      jti: id,
      iat,
      exp: iat + 3600,
      ...(boundTo === undefined ? {} : { cnf: { jkt: boundTo(i) } }),
    };
    const input = `${header}.${b64(claims)}`;
    tokens.push(`${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`);
  }
  return tokens;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * 16 distinct strings per token that decode to the same signature: a 256-byte RSA signature is
 * 342 base64url characters, so the last one carries 4 unused bits. Each string is a different
 * verified-token cache key that passes verification, which is what the memory run needs at a
 * sixteenth of the signing cost.
 */
export function encodingVariants(token: string): string[] {
  const last = ALPHABET.indexOf(token.at(-1) ?? 'A');
  const base = last & ~0b1111;
  return Array.from({ length: 16 }, (_, i) => `${token.slice(0, -1)}${ALPHABET[base | i]}`);
}
