import { expect, it } from 'vitest';
import { PLANS } from '#common';
import type { SuiteContext } from '../store-suite.ts';

export function projectCases(ctx: SuiteContext): void {
  it('creates a project with a prj_ id, its name, plan and creation time', async () => {
    const project = await ctx.store.createProject({ name: 'Acme', plan: 'business' });
    expect(project.id).toMatch(/^prj_[A-Za-z0-9_-]{16}$/);
    expect(project).toMatchObject({ name: 'Acme', plan: 'business', createdAt: ctx.clock.now() });
    expect(await ctx.store.getProject(project.id)).toEqual(project);
  });

  it('stores every plan value and gives each project a distinct id', async () => {
    const created = await Promise.all(PLANS.map((plan) => ctx.store.createProject({ name: `p-${plan}`, plan })));
    expect(created.map((p) => p.plan)).toEqual([...PLANS]);
    expect(new Set(created.map((p) => p.id)).size).toBe(PLANS.length);
    const listed = await ctx.store.listProjects();
    for (const project of created) expect(listed).toContainEqual(project);
  });

  it('rejects a plan outside the closed set at the database', async () => {
    const plan = 'gold' as (typeof PLANS)[number];
    await expect(ctx.store.createProject({ name: 'x', plan })).rejects.toThrow();
  });

  it('answers null for an unknown project', async () => {
    expect(await ctx.store.getProject('prj_unknown')).toBeNull();
  });

  it('deletes a project together with its clients and API keys', async () => {
    const project = await ctx.store.createProject({ name: 'Doomed', plan: 'enterprise' });
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'c',
      scopes: ['email'],
      secretHash: 'h',
    });
    const apiKey = await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h' });
    expect(await ctx.store.deleteProject(project.id)).toBe(true);
    expect(await ctx.store.getProject(project.id)).toBeNull();
    expect(await ctx.store.getClient(client.clientId)).toBeNull();
    expect(await ctx.store.listClients(project.id)).toEqual([]);
    expect(await ctx.store.getApiKey(apiKey.key)).toBeNull();
  });

  it('reports false when deleting a project that does not exist', async () => {
    expect(await ctx.store.deleteProject('prj_missing')).toBe(false);
  });
}
