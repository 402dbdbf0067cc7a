import { expect, it } from 'vitest';
import type { StoreChange } from '#store';
import type { SuiteContext } from '../store-suite.ts';

export function clientIntrospectCases(ctx: SuiteContext): void {
  it('stores whether a client may introspect, false unless granted, and grants and withdraws it', async () => {
    const project = await ctx.store.createProject({ name: 'introspect', plan: 'business' });
    const plain = await ctx.store.createClient({
      projectId: project.id,
      name: 'p',
      scopes: ['email'],
      secretHash: 'h',
    });
    expect(plain.introspect).toBe(false);
    const granted = await ctx.store.createClient({
      projectId: project.id,
      name: 'g',
      scopes: ['email'],
      secretHash: 'h',
      introspect: true,
    });
    expect((await ctx.store.getClient(granted.clientId))?.introspect).toBe(true);
    expect(await ctx.store.setClientIntrospect(plain.clientId, true)).toMatchObject({ introspect: true });
    expect((await ctx.store.getClient(plain.clientId))?.introspect).toBe(true);
    expect(await ctx.store.setClientIntrospect(granted.clientId, false)).toMatchObject({ introspect: false });
    // Both were created at the same instant, so the list may hold them in either order.
    const listed = await ctx.store.listClients(project.id);
    expect(Object.fromEntries(listed.map((c) => [c.clientId, c.introspect]))).toEqual({
      [plain.clientId]: true,
      [granted.clientId]: false,
    });
    expect(await ctx.store.setClientIntrospect('cli_missing', true)).toBeNull();
  });

  it('announces a change of the permission as a change of the client, so every replica reads it again', async () => {
    const project = await ctx.store.createProject({ name: 'introspect-change', plan: 'business' });
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'c',
      scopes: ['email'],
      secretHash: 'h',
    });
    const seen: StoreChange[] = [];
    const unsubscribe = ctx.store.onChange((change) => seen.push(change));
    try {
      await ctx.store.setClientIntrospect(client.clientId, true);
      expect(seen).toContainEqual({ kind: 'client', id: client.clientId });
    } finally {
      unsubscribe();
    }
  });
}
