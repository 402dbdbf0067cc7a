import { expect, it } from 'vitest';
import { captureLogger } from '../harness.ts';
import type { SuiteContext } from '../store-suite.ts';

export function lifecycleCases(ctx: SuiteContext): void {
  it('keeps every kind of record across close and reopen (restart)', async () => {
    const project = await ctx.store.createProject({ name: 'durable', plan: 'enterprise' });
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'c',
      scopes: ['phone'],
      secretHash: 'h1',
    });
    const apiKey = await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h2' });
    const revocation = await ctx.store.addRevocation({
      kind: 'jti',
      value: 'durable',
      issuedBefore: null,
      expiresAt: 4_000_000_000,
    });
    const keysBefore = await ctx.store.listSigningKeys();

    await ctx.store.close();
    ctx.store = await ctx.harness.open(ctx.clock);

    expect(await ctx.store.getProject(project.id)).toEqual(project);
    expect(await ctx.store.getClient(client.clientId)).toEqual(client);
    expect(await ctx.store.getApiKey(apiKey.key)).toEqual(apiKey);
    expect(await ctx.store.revocationsSince(revocation.seq - 1, 0)).toEqual([revocation]);
    expect(await ctx.store.listSigningKeys()).toEqual(keysBefore);
    const next = await ctx.store.addRevocation({
      kind: 'jti',
      value: 'after',
      issuedBefore: null,
      expiresAt: 4_000_000_000,
    });
    expect(next.seq).toBeGreaterThan(revocation.seq);
  });

  it('applies no migration when opening an up-to-date store', async () => {
    const { log, lines } = captureLogger();
    await ctx.store.close();
    ctx.store = await ctx.harness.open(ctx.clock, log);
    const opened = lines.find((line) => line.msg === 'store opened');
    expect(opened).toMatchObject({ store: ctx.store.kind, appliedMigrations: [] });
    expect(opened?.ms).toEqual(expect.any(Number));
  });

  it('closes idempotently', async () => {
    const second = await ctx.harness.open(ctx.clock).catch(() => null);
    // Embedded refuses a second open of an open directory; PostgreSQL allows replicas.
    if (second) await second.close();
    expect(second === null).toBe(ctx.store.kind === 'embedded');
    await ctx.store.close();
    await expect(ctx.store.close()).resolves.toBeUndefined();
    ctx.store = await ctx.harness.open(ctx.clock);
    expect(await ctx.store.listProjects()).not.toEqual([]);
  });
}
