import { constants, createHmac, KeyObject, randomUUID, sign as cryptoSign } from 'node:crypto';
import { exportJWK, type JWK, SignJWT } from 'jose';
import type { Clock, Scope } from '#common';
import type { KeyResolver, RevocationChecker } from '#auth';
import { pooledKeyPair } from './key-pool.ts';

/**
 * Named token builders minted at test time with jose (Envoy's test_common.h, STYLE.md): never a
 * hard-coded exp. Times come from the clock the test drives.
 */
export const TEST_ISSUER = 'http://issuer.test';
export const TEST_AUDIENCE = 'http://api.test';

export type TestAlg = 'RS256' | 'PS256' | 'ES256' | 'EdDSA';

export interface TestKey {
  readonly kid: string;
  readonly alg: TestAlg;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** Public JWK with kid, alg and use, as a key set publishes it. */
  readonly publicJwk: JWK;
}

let counter = 0;

/** A key pair this test process has not used before (from the run's pool: key-pool.ts), under `kid`. */
export async function createTestKey(
  alg: TestAlg = 'RS256',
  kid = `k${++counter}-${alg.toLowerCase()}`,
): Promise<TestKey> {
  const { privateKey, publicKey } = await pooledKeyPair(alg);
  const jwk = await exportJWK(publicKey);
  return {
    kid,
    alg,
    privateKey: KeyObject.from(privateKey),
    publicKey: KeyObject.from(publicKey),
    publicJwk: { ...jwk, kid, alg, use: 'sig' },
  };
}

export interface TokenOptions {
  key?: TestKey;
  scopes?: readonly Scope[];
  /** Seconds from now to exp (default 900); negative for an expired token. */
  expiresInSec?: number;
  /** Claims to override or add; `undefined` deletes a claim. */
  claims?: Record<string, unknown>;
  /** Header members to override; `undefined` deletes one. */
  header?: Record<string, unknown>;
}

function strip(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export interface TokenKit {
  readonly key: TestKey;
  readonly clock: Clock;
  claimsFor(options?: TokenOptions): Record<string, unknown>;
  goodToken(options?: TokenOptions): Promise<string>;
  tokenWithScopes(scopes: readonly Scope[], options?: TokenOptions): Promise<string>;
  expiredToken(secondsAgo?: number, options?: TokenOptions): Promise<string>;
  /** Signed by a key the attacker controls, under our kid. */
  forgedToken(options?: TokenOptions): Promise<string>;
  unknownKidToken(kid?: string, options?: TokenOptions): Promise<string>;
  wrongIssuerToken(options?: TokenOptions): Promise<string>;
  wrongAudienceToken(options?: TokenOptions): Promise<string>;
  wrongTypToken(typ?: string, options?: TokenOptions): Promise<string>;
  /** Signs any header and claims with node:crypto directly (headers jose would refuse, e.g. crit). */
  rawToken(header: Record<string, unknown>, claims: Record<string, unknown>): string;
  /** `alg: none` with an empty signature (JA-01). */
  noneAlgToken(alg?: string): string;
  /** HS256 keyed with our public key's JWK text (algorithm confusion, JA-02). */
  hs256Token(): string;
}

/** Builders bound to one signing key and clock. */
export async function createTokenKit(clock: Clock, key?: TestKey): Promise<TokenKit> {
  const main = key ?? (await createTestKey('RS256'));
  const attacker = await createTestKey(main.alg, main.kid);
  const nowSec = (): number => Math.floor(clock.now() / 1000);

  function claimsFor(options: TokenOptions = {}): Record<string, unknown> {
    const iat = nowSec();
    return strip({
      iss: TEST_ISSUER,
      aud: TEST_AUDIENCE,
      sub: 'client-1',
      client_id: 'client-1',
      project_id: 'project-1',
      scope: (options.scopes ?? ['address', 'phone', 'email']).join(' '),
      jti: randomUUID(),
      iat,
      exp: iat + (options.expiresInSec ?? 900),
      ...options.claims,
    });
  }

  async function sign(options: TokenOptions = {}, signer: TestKey = options.key ?? main): Promise<string> {
    const header = strip({ alg: signer.alg, kid: signer.kid, typ: 'at+jwt', ...options.header });
    return new SignJWT(claimsFor(options)).setProtectedHeader(header as { alg: string }).sign(signer.privateKey);
  }

  return {
    key: main,
    clock,
    claimsFor,
    goodToken: (options) => sign(options),
    tokenWithScopes: (scopes, options) => sign({ ...options, scopes }),
    expiredToken(secondsAgo = 60, options = {}) {
      const iat = nowSec() - 900 - secondsAgo;
      return sign({ ...options, claims: { iat, exp: iat + 900, ...options.claims } });
    },
    forgedToken: (options) => sign(options, attacker),
    unknownKidToken: (kid = `unknown-${randomUUID()}`, options = {}) =>
      sign({ ...options, header: { kid, ...options.header } }),
    wrongIssuerToken: (options = {}) => sign({ ...options, claims: { iss: 'http://evil.test', ...options.claims } }),
    wrongAudienceToken: (options = {}) =>
      sign({ ...options, claims: { aud: 'http://other-api.test', ...options.claims } }),
    wrongTypToken: (typ = 'JWT', options = {}) => sign({ ...options, header: { typ, ...options.header } }),
    rawToken(header, claims) {
      const input = `${b64(header)}.${b64(claims)}`;
      const digest = main.alg === 'EdDSA' ? null : 'sha256';
      const options =
        main.alg === 'PS256'
          ? { key: main.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
          : { key: main.privateKey, dsaEncoding: 'ieee-p1363' as const };
      return `${input}.${cryptoSign(digest, Buffer.from(input), options).toString('base64url')}`;
    },
    noneAlgToken: (alg = 'none') => `${b64({ alg, kid: main.kid, typ: 'at+jwt' })}.${b64(claimsFor())}.`,
    hs256Token() {
      const input = `${b64({ alg: 'HS256', kid: main.kid, typ: 'at+jwt' })}.${b64(claimsFor())}`;
      const mac = createHmac('sha256', JSON.stringify(main.publicJwk)).update(input).digest('base64url');
      return `${input}.${mac}`;
    },
  };
}

/** A fixed in-memory KeyResolver (what the issuer's local resolver looks like to the verifier). */
export function staticKeys(...keys: TestKey[]): KeyResolver & { remove(kid: string): void; put(key: TestKey): void } {
  const byKid = new Map(keys.map((k) => [k.kid, k]));
  return {
    get: (kid) => byKid.get(kid)?.publicKey,
    alg: (kid) => byKid.get(kid)?.alg,
    ready: () => true,
    remove: (kid) => void byKid.delete(kid),
    put: (key) => void byKid.set(key.kid, key),
  };
}

/** A RevocationChecker with a mutable jti list and a switchable usable(). */
export function simpleRevocations(): RevocationChecker & { revoked: Set<string>; stale: boolean } {
  const state = {
    revoked: new Set<string>(),
    stale: false,
    isRevoked: (token: { jti: string }) => state.revoked.has(token.jti),
    usable: () => !state.stale,
  };
  return state;
}

/** The Authorization header value for a token. */
export function bearer(token: string): string {
  return `Bearer ${token}`;
}
