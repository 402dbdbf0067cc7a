import { expect, it } from 'vitest';
import type { StoreChange } from '#store';
import type { SuiteContext } from '../store-suite.ts';

/**
 * Every change a replica may cache is announced to this process before the call resolves (on
 * PostgreSQL the NOTIFY's echo may come again later: listeners evict twice, harmlessly).
 */
export function changeCases(ctx: SuiteContext): void {
  const recording = () => {
    const seen: StoreChange[] = [];
    const unsubscribe = ctx.store.onChange((change) => seen.push(change));
    return { seen, unsubscribe };
  };

  it('announces each change of an account, project, client, API key and the signing keys by id before it resolves', async () => {
    const { seen, unsubscribe } = recording();
    const heard = (change: StoreChange) => expect(seen).toContainEqual(change);
    const project = await ctx.store.createProject({ name: 'changes', plan: 'business' });
    heard({ kind: 'project', id: project.id });
    await ctx.store.updateAccount(project.accountId, { plan: 'enterprise' });
    heard({ kind: 'account', id: project.accountId });
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'c',
      scopes: ['phone'],
      secretHash: 'h',
    });
    heard({ kind: 'client', id: client.clientId });
    seen.length = 0;
    await ctx.store.setClientEnabled(client.clientId, false);
    heard({ kind: 'client', id: client.clientId });
    seen.length = 0;
    await ctx.store.raiseClientGeneration(client.clientId);
    heard({ kind: 'client', id: client.clientId });
    const apiKey = await ctx.store.createApiKey({ projectId: project.id, secretHash: 'h' });
    heard({ kind: 'api_key', id: apiKey.key });
    const [key] = await ctx.store.listSigningKeys();
    if (key) {
      const { kid, status, activatedAt, retiredAt } = key;
      await ctx.store.updateSigningKeys([{ kid, status, activatedAt, retiredAt }]);
      heard({ kind: 'signing_keys', id: null });
    }
    seen.length = 0;
    await ctx.store.deleteProject(project.id);
    heard({ kind: 'project', id: project.id });
    unsubscribe();
  });

  it('announces nothing for what did not change: an unknown client, project or account', async () => {
    const { seen, unsubscribe } = recording();
    expect(await ctx.store.setClientEnabled('cli_missing', false)).toBeNull();
    expect(await ctx.store.raiseClientGeneration('cli_missing')).toBeNull();
    expect(await ctx.store.deleteProject('prj_missing')).toBe(false);
    expect(await ctx.store.updateAccount('acc_missing', { enabled: false })).toBeNull();
    unsubscribe();
    expect(seen.filter((change) => change.id?.endsWith('_missing'))).toEqual([]);
  });
}
