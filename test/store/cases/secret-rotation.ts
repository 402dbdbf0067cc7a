import { expect, it } from 'vitest';
import type { SuiteContext } from '../store-suite.ts';

export function secretRotationCases(ctx: SuiteContext): void {
  const business = () => ctx.store.createProject({ name: 'rotating', plan: 'business' });

  it('moves a client’s secret to previous with its end, keeping at most one previous, and announces each change', async () => {
    const project = await business();
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'c',
      scopes: ['phone'],
      secretHash: 'h1',
    });
    expect(client.previousSecret).toBeNull();
    const seen: string[] = [];
    const unsubscribe = ctx.store.onChange((change) => {
      if (change.kind === 'client' && change.id === client.clientId) seen.push(change.kind);
    });
    const rotated = await ctx.store.rotateClientSecret(client.clientId, 'h2', 5000);
    // This process hears its own change before the call resolves (on PostgreSQL, its NOTIFY again later).
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(rotated).toMatchObject({ secretHash: 'h2', previousSecret: { hash: 'h1', validUntil: 5000 } });
    expect(await ctx.store.getClient(client.clientId)).toEqual(rotated);
    // A second rotation drops the first secret: never more than two.
    expect(await ctx.store.rotateClientSecret(client.clientId, 'h3', 9000)).toMatchObject({
      secretHash: 'h3',
      previousSecret: { hash: 'h2', validUntil: 9000 },
    });
    // No overlap: no previous secret at all.
    expect(await ctx.store.rotateClientSecret(client.clientId, 'h4', null)).toMatchObject({
      secretHash: 'h4',
      previousSecret: null,
    });
    await ctx.store.rotateClientSecret(client.clientId, 'h5', 12_000);
    expect(await ctx.store.retireClientSecret(client.clientId)).toMatchObject({
      secretHash: 'h5',
      previousSecret: null,
    });
    expect(await ctx.store.retireClientSecret(client.clientId)).toMatchObject({
      secretHash: 'h5',
      previousSecret: null,
    });
    unsubscribe();
    // Each of the six announced (on PostgreSQL, this process hears its own NOTIFY too).
    expect(seen.length).toBeGreaterThanOrEqual(6);
  });

  it('answers null for an unknown client and for a private_key_jwt client, changing nothing', async () => {
    const project = await business();
    const keyed = await ctx.store.createClient({
      projectId: project.id,
      name: 'k',
      scopes: ['phone'],
      jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1' }] },
    });
    expect(await ctx.store.rotateClientSecret(keyed.clientId, 'h', 1)).toBeNull();
    expect(await ctx.store.retireClientSecret(keyed.clientId)).toBeNull();
    expect(await ctx.store.getClient(keyed.clientId)).toEqual(keyed);
    expect(await ctx.store.rotateClientSecret('cli_missing', 'h', 1)).toBeNull();
    expect(await ctx.store.retireClientSecret('cli_missing')).toBeNull();
  });

  it('rotates and retires an API key’s secret the same way, announcing each change', async () => {
    const project = await business();
    const apiKey = await ctx.store.createApiKey({ projectId: project.id, secretHash: 'k1' });
    expect(apiKey.previousSecret).toBeNull();
    const seen: string[] = [];
    const unsubscribe = ctx.store.onChange((change) => {
      if (change.kind === 'api_key' && change.id === apiKey.key) seen.push(change.kind);
    });
    const rotated = await ctx.store.rotateApiKeySecret(apiKey.key, 'k2', 7000);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(rotated).toMatchObject({ secretHash: 'k2', previousSecret: { hash: 'k1', validUntil: 7000 } });
    expect(await ctx.store.getApiKey(apiKey.key)).toEqual(rotated);
    expect(await ctx.store.rotateApiKeySecret(apiKey.key, 'k3', 8000)).toMatchObject({
      previousSecret: { hash: 'k2', validUntil: 8000 },
    });
    const before = seen.length;
    expect(await ctx.store.retireApiKeySecret(apiKey.key)).toMatchObject({ secretHash: 'k3', previousSecret: null });
    expect(seen.length).toBeGreaterThan(before);
    unsubscribe();
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(await ctx.store.rotateApiKeySecret('key_missing', 'h', 1)).toBeNull();
    expect(await ctx.store.retireApiKeySecret('key_missing')).toBeNull();
  });
}
