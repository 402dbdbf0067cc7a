import { expect, it } from 'vitest';
import type { SuiteContext } from '../store-suite.ts';

export function apiKeyCases(ctx: SuiteContext): void {
  it('creates an API key with a key_ id on any plan and finds it by key', async () => {
    const project = await ctx.store.createProject({ name: 'keys', plan: 'free' });
    const apiKey = await ctx.store.createApiKey({ projectId: project.id, secretHash: 'sha256:abc' });
    expect(apiKey.key).toMatch(/^key_[A-Za-z0-9_-]{22}$/);
    expect(apiKey).toMatchObject({
      projectId: project.id,
      secretHash: 'sha256:abc',
      enabled: true,
      createdAt: ctx.clock.now(),
    });
    expect(await ctx.store.getApiKey(apiKey.key)).toEqual(apiKey);
  });

  it("lists a project's API keys only, oldest first", async () => {
    const [mine, other] = [
      await ctx.store.createProject({ name: 'a', plan: 'business' }),
      await ctx.store.createProject({ name: 'b', plan: 'free' }),
    ];
    const first = await ctx.store.createApiKey({ projectId: mine.id, secretHash: 'h1' });
    ctx.clock.set(ctx.clock.now() + 1000);
    const second = await ctx.store.createApiKey({ projectId: mine.id, secretHash: 'h2' });
    await ctx.store.createApiKey({ projectId: other.id, secretHash: 'h3' });
    expect(await ctx.store.listApiKeys(mine.id)).toEqual([first, second]);
    expect(await ctx.store.listApiKeys('prj_missing')).toEqual([]);
  });

  it('deletes an API key once, announcing it to every replica, and leaves the project’s other keys', async () => {
    const project = await ctx.store.createProject({ name: 'gone', plan: 'free' });
    const [doomed, kept] = [
      await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h1' }),
      await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h2' }),
    ];
    const seen: string[] = [];
    const unsubscribe = ctx.store.onChange((change) => {
      if (change.kind === 'api_key' && change.id) seen.push(change.id);
    });
    expect(await ctx.store.deleteApiKey(doomed.key)).toEqual(doomed);
    expect(seen).toContain(doomed.key);
    unsubscribe();
    expect(await ctx.store.getApiKey(doomed.key)).toBeNull();
    expect(await ctx.store.deleteApiKey(doomed.key)).toBeNull();
    expect(await ctx.store.listApiKeys(project.id)).toEqual([kept]);
  });

  it('disables and enables an API key, announcing each change to every replica, and leaves its other fields', async () => {
    const project = await ctx.store.createProject({ name: 'toggled', plan: 'free' });
    const toggled = await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h1' });
    ctx.clock.set(ctx.clock.now() + 1000);
    const other = await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h2' });
    const seen: string[] = [];
    const unsubscribe = ctx.store.onChange((change) => {
      if (change.kind === 'api_key' && change.id) seen.push(change.id);
    });
    expect(await ctx.store.setApiKeyEnabled(toggled.key, false)).toEqual({ ...toggled, enabled: false });
    // On PostgreSQL announcements arrive late too (the other key's creation, other suites' keys on
    // the same channel): only that this key's change was heard counts.
    expect(seen).toContain(toggled.key);
    seen.length = 0;
    expect(await ctx.store.getApiKey(toggled.key)).toEqual({ ...toggled, enabled: false });
    expect(await ctx.store.listApiKeys(project.id)).toEqual([{ ...toggled, enabled: false }, other]);
    expect(await ctx.store.setApiKeyEnabled(toggled.key, true)).toEqual(toggled);
    expect(seen).toContain(toggled.key);
    expect(await ctx.store.getApiKey(toggled.key)).toEqual(toggled);
    expect(await ctx.store.setApiKeyEnabled('key_missing', false)).toBeNull();
    unsubscribe();
    expect(seen).not.toContain('key_missing');
  });

  it('refuses an API key for a project that does not exist and answers null for an unknown key', async () => {
    await expect(ctx.store.createApiKey({ projectId: 'prj_missing', secretHash: 'h' })).rejects.toMatchObject({
      code: 'project_not_found',
    });
    expect(await ctx.store.getApiKey('key_missing')).toBeNull();
  });
}
