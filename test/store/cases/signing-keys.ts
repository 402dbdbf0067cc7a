import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
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

  // Each case starts from an empty key set (at most one key may be active).
  beforeEach(async () => {
    for (const key of await ctx.store.listSigningKeys()) await ctx.store.deleteSigningKey(key.kid);
  });

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
    // Listed promotion first: the store still demotes before it promotes.
    await ctx.store.updateSigningKeys([
      { kid: next.kid, status: 'active', activatedAt: 5000, retiredAt: null },
      { kid: active.kid, status: 'retired', activatedAt: 1000, retiredAt: 5000 },
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

  it('changes nothing when a key of a rotation no longer has the status the rotation read (another rotation landed first)', async () => {
    const active = signingKey('active', 1000);
    const next = signingKey('next', 2000);
    await ctx.store.insertSigningKey(active);
    await ctx.store.insertSigningKey(next);
    const rotation = (now: number) => [
      { kid: active.kid, status: 'retired' as const, activatedAt: 1000, retiredAt: now, from: 'active' as const },
      { kid: next.kid, status: 'active' as const, activatedAt: now, retiredAt: null, from: 'next' as const },
    ];
    await ctx.store.updateSigningKeys(rotation(5000));
    await expect(ctx.store.updateSigningKeys(rotation(6000))).rejects.toMatchObject({
      name: 'StoreError',
      code: 'signing_keys_changed',
    });
    expect(await ours([active, next])).toEqual([
      { ...active, status: 'retired', retiredAt: 5000 },
      { ...next, status: 'active', activatedAt: 5000 },
    ]);
    const later = signingKey('next', 3000);
    await ctx.store.insertSigningKey(later);
    // Promoting beside an active key the rotation never read: refused the same way, not as a bare unique violation.
    const blind = ctx.store.updateSigningKeys([
      { kid: later.kid, status: 'active', activatedAt: 7000, retiredAt: null },
    ]);
    await expect(blind).rejects.toMatchObject({ name: 'StoreError', code: 'signing_keys_changed' });
    expect(await ours([later])).toEqual([later]);
  });

  it('deletes a signing key', async () => {
    const retired = signingKey('retired', 1000);
    await ctx.store.insertSigningKey(retired);
    await ctx.store.deleteSigningKey(retired.kid);
    expect(await ours([retired])).toEqual([]);
  });

  it('refuses a second active key with a code the issuer can act on', async () => {
    await ctx.store.insertSigningKey(signingKey('active', 1000));
    const second = signingKey('active', 2000);
    await expect(ctx.store.insertSigningKey(second)).rejects.toMatchObject({
      name: 'StoreError',
      code: 'active_signing_key_exists',
    });
    expect(await ours([second])).toEqual([]);
  });

  it('refuses a second next key with a code the issuer can act on', async () => {
    await ctx.store.insertSigningKey(signingKey('next', 1000));
    const second = signingKey('next', 2000);
    await expect(ctx.store.insertSigningKey(second)).rejects.toMatchObject({
      name: 'StoreError',
      code: 'next_signing_key_exists',
    });
    expect(await ours([second])).toEqual([]);
  });

  it('rejects a second key with the same kid', async () => {
    const key = signingKey('next', 1000);
    await ctx.store.insertSigningKey(key);
    await expect(ctx.store.insertSigningKey(key)).rejects.toThrow(/duplicate key/);
  });
}
