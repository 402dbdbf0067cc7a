import { expect, it } from 'vitest';
import type { SuiteContext } from '../store-suite.ts';

export function accountCases(ctx: SuiteContext): void {
  it('creates an account with an acc_ id, its name, plan, enabled and creation time', async () => {
    const account = await ctx.store.createAccount({ name: 'Acme Pty Ltd', plan: 'business' });
    expect(account.id).toMatch(/^acc_[A-Za-z0-9_-]{16}$/);
    expect(account).toMatchObject({
      name: 'Acme Pty Ltd',
      plan: 'business',
      enabled: true,
      createdAt: ctx.clock.now(),
    });
    expect(await ctx.store.getAccount(account.id)).toEqual(account);
    expect(await ctx.store.listAccounts()).toContainEqual(account);
  });

  it('creates a project in an account; the project reads its plan and state from the account', async () => {
    const account = await ctx.store.createAccount({ name: 'Owner', plan: 'enterprise' });
    const project = await ctx.store.createProject({ name: 'Web', accountId: account.id });
    expect(project).toMatchObject({ name: 'Web', plan: 'enterprise', accountId: account.id, accountEnabled: true });
    await ctx.store.updateAccount(account.id, { plan: 'free' });
    expect(await ctx.store.getProject(project.id)).toMatchObject({ plan: 'free', accountEnabled: true });
    await ctx.store.updateAccount(account.id, { enabled: false });
    expect(await ctx.store.getProject(project.id)).toMatchObject({ plan: 'free', accountEnabled: false });
    expect(await ctx.store.getAccount(account.id)).toMatchObject({ plan: 'free', enabled: false });
    expect(await ctx.store.listProjects(account.id)).toEqual([await ctx.store.getProject(project.id)]);
  });

  it('gives a project created with a plan a new account of that plan, named after it', async () => {
    const project = await ctx.store.createProject({ name: 'Standalone', plan: 'free' });
    const account = await ctx.store.getAccount(project.accountId);
    expect(account).toMatchObject({ name: 'Standalone', plan: 'free', enabled: true });
    expect(await ctx.store.listProjects(project.accountId)).toEqual([project]);
  });

  it('refuses a project in an unknown account with account_not_found, and an unknown plan at the database', async () => {
    await expect(ctx.store.createProject({ name: 'x', accountId: 'acc_missing' })).rejects.toMatchObject({
      code: 'account_not_found',
    });
    const plan = 'gold' as 'free';
    await expect(ctx.store.createAccount({ name: 'x', plan })).rejects.toThrow();
  });

  it('refuses an OAuth client once the account moved to the free plan', async () => {
    const account = await ctx.store.createAccount({ name: 'Downgraded', plan: 'business' });
    const project = await ctx.store.createProject({ name: 'p', accountId: account.id });
    await ctx.store.updateAccount(account.id, { plan: 'free' });
    await expect(
      ctx.store.createClient({ projectId: project.id, name: 'c', scopes: ['email'], secretHash: 'h' }),
    ).rejects.toMatchObject({ code: 'plan_forbids_oauth' });
  });

  it('answers null for an unknown account, read or updated', async () => {
    expect(await ctx.store.getAccount('acc_unknown')).toBeNull();
    expect(await ctx.store.updateAccount('acc_unknown', { enabled: false })).toBeNull();
  });
}
