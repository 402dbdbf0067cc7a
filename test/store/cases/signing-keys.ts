import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { SigningKey } from '#store';
import type { SuiteContext } from '../store-suite.ts';

function signingKey(status: SigningKey['status'], createdAt: number): SigningKey {
  const kid = randomUUID();
  return {
    kid,
    alg: 'RS256',
    status,
    publicJwk: { kty: 'RSA', kid, n: 'AQAB-n', e: 'AQAB', use: 'sig', alg: 'RS256' },
    privateKey: JSON.stringify({ kty: 'RSA', d: 'private' }),
    createdAt,
    activatedAt: status === 'active' ? createdAt : null,
    retiredAt: null,
  };
}

export function signingKeyCases(ctx: SuiteContext): void {
  const ours = async (keys: SigningKey[]) => {
    const kids = new Set(keys.map((k) => k.kid));
    return (await ctx.store.listSigningKeys()).filter((k) => kids.has(k.kid));
  };

  it('stores signing keys with their public JWK and private key, oldest first', async () => {
    const active = signingKey('active', 1000);
    const next = signingKey('next', 2000);
    await ctx.store.insertSigningKey(next);
    await ctx.store.insertSigningKey(active);
    expect(await ours([active, next])).toEqual([active, next]);
  });

  it('applies a rotation to several keys at once', async () => {
    const active = signingKey('active', 1000);
    const next = signingKey('next', 2000);
    await ctx.store.insertSigningKey(active);
    await ctx.store.insertSigningKey(next);
    await ctx.store.updateSigningKeys([
      { kid: active.kid, status: 'retired', activatedAt: 1000, retiredAt: 5000 },
      { kid: next.kid, status: 'active', activatedAt: 5000, retiredAt: null },
    ]);
    expect(await ours([active, next])).toEqual([
      { ...active, status: 'retired', retiredAt: 5000 },
      { ...next, status: 'active', activatedAt: 5000 },
    ]);
  });

  it('changes nothing when one change of a rotation names an unknown kid', async () => {
    const active = signingKey('active', 1000);
    await ctx.store.insertSigningKey(active);
    const rotation = ctx.store.updateSigningKeys([
      { kid: active.kid, status: 'retired', activatedAt: 1000, retiredAt: 5000 },
      { kid: 'missing-kid', status: 'active', activatedAt: 5000, retiredAt: null },
    ]);
    await expect(rotation).rejects.toMatchObject({ code: 'signing_key_not_found' });
    expect(await ours([active])).toEqual([active]);
  });

  it('deletes a signing key', async () => {
    const retired = signingKey('retired', 1000);
    await ctx.store.insertSigningKey(retired);
    await ctx.store.deleteSigningKey(retired.kid);
    expect(await ours([retired])).toEqual([]);
  });

  it('rejects a second key with the same kid', async () => {
    const key = signingKey('next', 1000);
    await ctx.store.insertSigningKey(key);
    await expect(ctx.store.insertSigningKey(key)).rejects.toThrow();
  });
}
