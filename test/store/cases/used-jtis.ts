import { expect, it } from 'vitest';
import type { SuiteContext } from '../store-suite.ts';

export function usedJtiCases(ctx: SuiteContext): void {
  it('takes a jti once per scope, also when two callers race for it, and forgets it once expired', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => ctx.store.claimJti('assertion:cli_a', 'j1', 1000)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await ctx.store.claimJti('assertion:cli_b', 'j1', 1000)).toBe(true);
    expect(await ctx.store.pruneJtis(999)).toBe(0);
    expect(await ctx.store.claimJti('assertion:cli_a', 'j1', 1000)).toBe(false);
    expect(await ctx.store.pruneJtis(1000)).toBe(2);
    expect(await ctx.store.claimJti('assertion:cli_a', 'j1', 2000)).toBe(true);
  });

  it('stores a private_key_jwt client with its key set and no secret, and replaces the set', async () => {
    const project = await ctx.store.createProject({ name: 'jwt', plan: 'business' });
    const jwks = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'abc', kid: 'one' }] };
    const client = await ctx.store.createClient({ projectId: project.id, name: 'jwt', scopes: ['email'], jwks });
    expect(client).toMatchObject({ secretHash: null, jwks });
    expect(await ctx.store.getClient(client.clientId)).toEqual(client);
    const next = { keys: [{ ...jwks.keys[0], kid: 'two' }] };
    expect(await ctx.store.setClientJwks(client.clientId, next)).toMatchObject({ jwks: next });
    expect((await ctx.store.getClient(client.clientId))?.jwks).toEqual(next);
    const secret = await ctx.store.createClient({
      projectId: project.id,
      name: 's',
      scopes: ['email'],
      secretHash: 'h',
    });
    expect(secret.jwks).toBeNull();
    expect(await ctx.store.setClientJwks(secret.clientId, next)).toBeNull();
    expect(await ctx.store.setClientJwks('cli_missing', next)).toBeNull();
  });

  it('stores whether a client must use DPoP, false unless asked, and changes it', async () => {
    const project = await ctx.store.createProject({ name: 'dpop', plan: 'business' });
    const plain = await ctx.store.createClient({
      projectId: project.id,
      name: 'p',
      scopes: ['email'],
      secretHash: 'h',
    });
    expect(plain.requireDpop).toBe(false);
    const bound = await ctx.store.createClient({
      projectId: project.id,
      name: 'b',
      scopes: ['email'],
      secretHash: 'h',
      requireDpop: true,
    });
    expect((await ctx.store.getClient(bound.clientId))?.requireDpop).toBe(true);
    expect(await ctx.store.setClientRequireDpop(plain.clientId, true)).toMatchObject({ requireDpop: true });
    expect(await ctx.store.setClientRequireDpop('cli_missing', true)).toBeNull();
  });

  it('refuses a client with both a secret and keys, or with neither', async () => {
    const project = await ctx.store.createProject({ name: 'bad', plan: 'business' });
    const jwks = { keys: [] };
    await expect(
      ctx.store.createClient({ projectId: project.id, name: 'both', scopes: ['email'], secretHash: 'h', jwks }),
    ).rejects.toThrow();
    await expect(ctx.store.createClient({ projectId: project.id, name: 'none', scopes: ['email'] })).rejects.toThrow();
  });
}
