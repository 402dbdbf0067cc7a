import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generatePair, publicMembers, thumbprint } from '../../src/issuer/keys/algorithms.ts';
import { KeyWrapper } from '../../src/issuer/keys/envelope.ts';
import { KeyEncryptionError } from '../../src/issuer/keys/key-errors.ts';
import { activeKey, isExpired, promotableAt, rotationChanges } from '../../src/issuer/keys/lifecycle.ts';
import { newSigningKey } from '../../src/issuer/keys/new-key.ts';
import { NEXT_KEY_MIN_PUBLISHED_SEC } from '../../src/issuer/limits.ts';
import { createJwtSigner } from '../../src/issuer/tokens/jwt-signer.ts';
import type { SigningKey } from '#store';

describe('envelope', () => {
  const wrapper = new KeyWrapper('0123456789abcdef-key-encryption');

  it('round-trips and binds the envelope to its kid', () => {
    const sealed = wrapper.wrap('kid-1', '{"d":"secret"}');
    expect(sealed).not.toContain('secret');
    expect(wrapper.unwrap('kid-1', sealed)).toBe('{"d":"secret"}');
    expect(() => wrapper.unwrap('kid-2', sealed)).toThrow(KeyEncryptionError);
  });
});

describe('signing', () => {
  it.each(['RS256', 'ES256', 'EdDSA'] as const)(
    'signs %s tokens node:crypto verifies with the published key',
    async (alg) => {
      const { privateKey, publicKey } = await generatePair(alg);
      const jwk = publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
      const signer = createJwtSigner(thumbprint(jwk), alg, privateKey);
      const [h, p, s] = signer.sign({ sub: 'x' }).split('.') as [string, string, string];
      expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg, typ: 'at+jwt', kid: thumbprint(jwk) });
      const key = createPublicKey({ key: publicMembers(jwk), format: 'jwk' });
      const digest = alg === 'EdDSA' ? null : 'sha256';
      const options = alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' as const } : key;
      expect(verify(digest, Buffer.from(`${h}.${p}`), options, Buffer.from(s, 'base64url'))).toBe(true);
    },
  );

  it('uses the RFC 7638 thumbprint as kid and publishes no private member', async () => {
    const key = await newSigningKey('RS256', 'active', 1000, null);
    expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(key.publicJwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(JSON.parse(key.privateKey)).toHaveProperty('d');
  });
});

describe('lifecycle', () => {
  const key = (kid: string, status: SigningKey['status'], t: number): SigningKey => ({
    kid,
    alg: 'RS256',
    status,
    publicJwk: {},
    privateKey: '',
    createdAt: t,
    activatedAt: status === 'next' ? null : t,
    retiredAt: status === 'retired' ? t : null,
  });

  it('promotes next and retires every active key, each only from the status it was read with', () => {
    expect(rotationChanges([key('a', 'active', 1), key('n', 'next', 2)], 10)).toEqual([
      { kid: 'a', status: 'retired', activatedAt: 1, retiredAt: 10, from: 'active' },
      { kid: 'n', status: 'active', activatedAt: 10, retiredAt: null, from: 'next' },
    ]);
  });

  it('picks the most recently activated key when two replicas raced', () => {
    expect(activeKey([key('a', 'active', 1), key('b', 'active', 5)])?.kid).toBe('b');
  });

  it('lets the next key of the first start sign at once, also one another replica created moments later', () => {
    const keys = [key('a', 'active', 1_000), key('n', 'next', 1_900)];
    expect(promotableAt(keys[1] as SigningKey, keys)).toBe(1_900);
  });

  it('makes a next key created after a rotation wait until it was in every key set', () => {
    const keys = [key('r', 'retired', 0), key('a', 'active', 1_000), key('n', 'next', 1_000)];
    expect(promotableAt(keys[2] as SigningKey, keys)).toBe(1_000 + NEXT_KEY_MIN_PUBLISHED_SEC * 1000);
  });

  it('expires a retired key 3660 s after retirement', () => {
    const retired = key('r', 'retired', 0);
    expect(isExpired(retired, 3_659_999)).toBe(false);
    expect(isExpired(retired, 3_660_000)).toBe(true);
  });
});
