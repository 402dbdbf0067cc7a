import { expect, it } from 'vitest';
import type { SuiteContext } from '../store-suite.ts';

export function activityCases(ctx: SuiteContext): void {
  it('keeps each account’s entries apart, newest first, stamped now, with a null address when unknown', async () => {
    const a = await ctx.store.createAccount({ name: 'Logged', plan: 'business' });
    const b = await ctx.store.createAccount({ name: 'Other', plan: 'free' });
    const entry = { accountId: a.id, actor: 'operator', target: 'cli_1', address: '127.0.0.1' };
    const start = ctx.clock.now();
    await ctx.store.addActivity({ ...entry, action: 'client.create' });
    ctx.clock.set(start + 1000);
    await ctx.store.addActivity({ ...entry, action: 'client.disable', actor: 'owner@example.com', address: null });
    await ctx.store.addActivity({ ...entry, accountId: b.id, action: 'project.create' });
    expect(await ctx.store.listActivity(a.id, 500)).toEqual([
      { at: start + 1000, actor: 'owner@example.com', action: 'client.disable', target: 'cli_1', address: null },
      { at: start, actor: 'operator', action: 'client.create', target: 'cli_1', address: '127.0.0.1' },
    ]);
    expect((await ctx.store.listActivity(b.id, 500)).map((e) => e.action)).toEqual(['project.create']);
    ctx.clock.set(start);
  });

  it('returns only the latest `limit` entries, in insertion order when the clock ties', async () => {
    const a = await ctx.store.createAccount({ name: 'Busy', plan: 'free' });
    for (const target of ['1', '2', '3'])
      await ctx.store.addActivity({
        accountId: a.id,
        actor: 'operator',
        action: 'api_key.create',
        target,
        address: null,
      });
    expect((await ctx.store.listActivity(a.id, 2)).map((e) => e.target)).toEqual(['3', '2']);
  });

  it('refuses an entry for an unknown account or a malformed action, and lists none for an unknown account', async () => {
    const entry = { actor: 'operator', target: 'x', address: null };
    await expect(
      ctx.store.addActivity({ ...entry, accountId: 'acc_missing', action: 'client.create' }),
    ).rejects.toThrow();
    const a = await ctx.store.createAccount({ name: 'Strict', plan: 'free' });
    await expect(ctx.store.addActivity({ ...entry, accountId: a.id, action: 'Client Create' })).rejects.toThrow();
    expect(await ctx.store.listActivity('acc_missing', 500)).toEqual([]);
  });
}
