import { expect, it } from 'vitest';
import type { PolicyChanges, PolicyCursor } from '#store';
import type { SuiteContext } from '../store-suite.ts';

/** The changes after `cursor` that concern `projectIds` (other cases of the suite write too). */
function about(changes: PolicyChanges, projectIds: readonly string[]) {
  const mine = new Set(projectIds);
  return {
    projects: changes.projects.filter((p) => mine.has(p.projectId)),
    apiKeys: changes.apiKeys.filter((k) => mine.has(k.projectId)),
    removedProjects: changes.removedProjects.filter((id) => mine.has(id)),
  };
}

export function policyChangeCases(ctx: SuiteContext): void {
  /** Reads on from `cursor` until the log has nothing more (other cases may have written a lot). */
  async function drain(cursor: PolicyCursor): Promise<PolicyChanges> {
    let changes = await ctx.store.policyChangesSince(cursor);
    while (changes.more) changes = await ctx.store.policyChangesSince(changes.cursor);
    return changes;
  }

  it('reads everything without a cursor, then nothing until something changes', async () => {
    const project = await ctx.store.createProject({ name: 'feed', plan: 'business' });
    const key = await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h' });
    const first = await ctx.store.policyChangesSince(null);
    expect(first.full).toBe(true);
    expect(first.projects).toContainEqual({ projectId: project.id, plan: 'business', override: null });
    expect(first.apiKeys).toContainEqual({ key: key.key, projectId: project.id });
    const quiet = await ctx.store.policyChangesSince(first.cursor);
    expect(quiet).toMatchObject({ full: false, more: false, cursor: first.cursor, projects: [], apiKeys: [] });
  });

  it("names each change after the cursor: an override, a key's disable, an account's plan and disable, a deletion", async () => {
    const project = await ctx.store.createProject({ name: 'changing', plan: 'free' });
    const key = await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h' });
    let cursor = (await drain((await ctx.store.policyChangesSince(null)).cursor)).cursor;
    const next = async () => {
      const changes = await drain(cursor);
      cursor = changes.cursor;
      return changes;
    };
    await ctx.store.setProjectLimits(project.id, { monthlyQuota: 5 });
    expect(about(await next(), [project.id]).projects).toEqual([
      { projectId: project.id, plan: 'free', override: { monthlyQuota: 5 } },
    ]);
    await ctx.store.setApiKeyEnabled(key.key, false);
    expect((await next()).removedKeys).toContain(key.key);
    await ctx.store.setApiKeyEnabled(key.key, true);
    expect(about(await next(), [project.id]).apiKeys).toEqual([{ key: key.key, projectId: project.id }]);
    await ctx.store.updateAccount(project.accountId, { plan: 'enterprise' });
    expect(about(await next(), [project.id]).projects).toEqual([
      { projectId: project.id, plan: 'enterprise', override: { monthlyQuota: 5 } },
    ]);
    await ctx.store.updateAccount(project.accountId, { enabled: false });
    expect((await next()).removedKeys).toContain(key.key);
    await ctx.store.updateAccount(project.accountId, { enabled: true });
    expect(about(await next(), [project.id]).apiKeys).toEqual([{ key: key.key, projectId: project.id }]);
    await ctx.store.deleteProject(project.id);
    const deleted = await next();
    expect(deleted.removedProjects).toContain(project.id);
    expect(deleted.removedKeys).toContain(key.key);
  });

  it('pages a long run of changes, saying there is more', async () => {
    const { cursor } = await drain((await ctx.store.policyChangesSince(null)).cursor);
    const project = await ctx.store.createProject({ name: 'paged', plan: 'free' });
    for (let i = 0; i < 3; i++) await ctx.store.createApiKey({ projectId: project.id, secretHash: `h${i}` });
    const page = await ctx.store.policyChangesSince(cursor, 2);
    expect(page.more).toBe(true);
    expect(page.cursor.seq).toBeGreaterThan(cursor.seq);
    const rest = await drain(page.cursor);
    expect(rest.more).toBe(false);
  });

  it('reads everything again for a cursor before the pruned part of the log or of another store', async () => {
    const project = await ctx.store.createProject({ name: 'gap', plan: 'free' });
    const { cursor } = await drain((await ctx.store.policyChangesSince(null)).cursor);
    await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h' });
    expect(await ctx.store.prunePolicyChanges(Date.now() + 60_000)).toBeGreaterThan(0);
    const after = await ctx.store.policyChangesSince(cursor);
    expect(after.full).toBe(true);
    expect(about(after, [project.id]).projects).toHaveLength(1);
    expect((await ctx.store.policyChangesSince(after.cursor)).full).toBe(false);
    expect((await ctx.store.policyChangesSince({ epoch: 'ffff', seq: after.cursor.seq })).full).toBe(true);
  });
}
