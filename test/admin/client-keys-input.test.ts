import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClientInput, parseInput, setClientKeysInput } from '#admin';
import { clientKey, keySet } from '#test/client-keys.ts';

const refusal = (schema: Parameters<typeof parseInput>[0], value: unknown): string => {
  try {
    parseInput(schema, value);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('a client key set as admin input', () => {
  it('keeps only the public members of RSA, P-256 and Ed25519 keys', async () => {
    const keys = await Promise.all([clientKey('RS256'), clientKey('ES256'), clientKey('EdDSA')]);
    const set = keySet(...keys);
    set.keys[0] = { ...set.keys[0], x5c: ['ignored'], use: 'sig', alg: 'PS256' };
    const parsed = parseInput(setClientKeysInput, { jwks: set });
    expect(parsed.jwks.keys[0]).toEqual({ ...keys[0]?.publicJwk, use: 'sig', alg: 'PS256' });
    expect(parsed.jwks.keys.slice(1)).toEqual(keys.slice(1).map((key) => key.publicJwk));
  });

  it('refuses each kind of key that cannot be a client key, naming why', async () => {
    const ec = (await clientKey('ES256')).publicJwk;
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    const cases: Array<[unknown, string]> = [
      [undefined, 'jwks: required'],
      [{ keys: [] }, 'jwks: required'],
      [{ keys: Array.from({ length: 11 }, (_, i) => ({ ...ec, kid: `k${i}` })) }, 'jwks: required'],
      [{ keys: ['x'] }, 'jwks: each key must be a JSON object'],
      [{ keys: [{ ...ec, d: 'secret' }] }, 'jwks: a key holds private key material'],
      [{ keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 'h' }] }, 'jwks: a key holds private key material'],
      [{ keys: [{ kty: 'oct', kid: 'h' }] }, 'jwks: kty must be RSA, EC or OKP'],
      [{ keys: [{ ...ec, kid: undefined }] }, 'jwks: each key needs a kid'],
      [{ keys: [{ ...ec, kid: '' }] }, 'jwks: each key needs a kid'],
      [{ keys: [{ ...ec, alg: 'RS256' }] }, 'jwks: alg of a EC key must be one of ES256'],
      [{ keys: [{ ...ec, use: 'enc' }] }, 'jwks: use must be "sig"'],
      [{ keys: [{ ...p384, kid: 'p' }] }, 'jwks: an EC key must be on P-256'],
      [{ keys: [{ ...ec, x: 'AAAA' }] }, 'jwks: a key is not a valid public JWK'],
      [{ keys: [{ ...small, kid: 'r' }] }, 'jwks: an RSA key must have at least 2048 bits'],
      [{ keys: [ec, ec] }, 'jwks: two keys share a kid'],
    ];
    for (const [jwks, message] of cases) {
      expect(refusal(setClientKeysInput, { jwks }), JSON.stringify(jwks)).toContain(message);
    }
  });

  it('needs jwks exactly when auth is private_key_jwt', async () => {
    const jwks = keySet(await clientKey('ES256'));
    const base = { name: 'c', scopes: ['email'] };
    expect(parseInput(createClientInput, base)).toEqual({ ...base });
    expect(parseInput(createClientInput, { ...base, auth: 'private_key_jwt', jwks })).toMatchObject({ jwks });
    expect(refusal(createClientInput, { ...base, auth: 'private_key_jwt' })).toBe(
      'jwks: required when auth is private_key_jwt',
    );
    expect(refusal(createClientInput, { ...base, jwks })).toContain('jwks: only a private_key_jwt client');
    expect(refusal(createClientInput, { ...base, auth: 'basic' })).toBe('auth: one of client_secret, private_key_jwt');
  });
});
