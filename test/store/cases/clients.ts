import { expect, it } from 'vitest';
import { hashSecret } from '#common';
import { StoreError } from '#store';
import type { SuiteContext } from '../store-suite.ts';

export function clientCases(ctx: SuiteContext): void {
  const newProject = (plan: 'free' | 'business' | 'enterprise' = 'business') =>
    ctx.store.createProject({ name: `clients-${plan}`, plan });

  it('creates an enabled client with a cli_ id, its scopes and only the secret hash', async () => {
    const project = await newProject();
    const secretHash = hashSecret('s3cret');
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'backend',
      scopes: ['address', 'phone'],
      secretHash,
    });
    expect(client.clientId).toMatch(/^cli_[A-Za-z0-9_-]{22}$/);
    expect(client).toMatchObject({
      projectId: project.id,
      name: 'backend',
      scopes: ['address', 'phone'],
      enabled: true,
      secretHash,
    });
    expect(await ctx.store.getClient(client.clientId)).toEqual(client);
  });

  it('round-trips every scope combination, collapsing duplicates', async () => {
    const project = await newProject('enterprise');
    const all = await ctx.store.createClient({
      projectId: project.id,
      name: 'all',
      scopes: ['address', 'phone', 'email'],
      secretHash: 'h',
    });
    const none = await ctx.store.createClient({ projectId: project.id, name: 'none', scopes: [], secretHash: 'h' });
    const dup = await ctx.store.createClient({
      projectId: project.id,
      name: 'dup',
      scopes: ['email', 'email'],
      secretHash: 'h',
    });
    expect((await ctx.store.getClient(all.clientId))?.scopes).toEqual(['address', 'phone', 'email']);
    expect((await ctx.store.getClient(none.clientId))?.scopes).toEqual([]);
    expect((await ctx.store.getClient(dup.clientId))?.scopes).toEqual(['email']);
  });

  it('rejects a scope outside the closed set at the database', async () => {
    const project = await newProject();
    const scopes = ['email', 'admin'] as unknown as ['email'];
    await expect(
      ctx.store.createClient({ projectId: project.id, name: 'x', scopes, secretHash: 'h' }),
    ).rejects.toThrow();
  });

  it('refuses a second client of a name in one project, compared without case and surrounding spaces, and allows it in another', async () => {
    const [project, other] = [await newProject(), await newProject()];
    const create = (projectId: string, name: string) =>
      ctx.store.createClient({ projectId, name, scopes: ['email'], secretHash: 'h' });
    const first = await create(project.id, 'Billing sync');
    for (const name of ['Billing sync', 'billing SYNC', '  Billing sync ']) {
      await expect(create(project.id, name)).rejects.toMatchObject({
        name: 'StoreError',
        code: 'client_name_taken',
        message: `a client named ${JSON.stringify(name)} already exists in this project (names are compared ignoring case)`,
      });
    }
    expect(await ctx.store.listClients(project.id)).toEqual([first]);
    expect((await create(other.id, 'billing sync')).name).toBe('billing sync');
    expect((await create(project.id, 'Billing sync 2')).name).toBe('Billing sync 2');
  });

  it('lets exactly one of several creations of one name at the same time succeed', async () => {
    const project = await newProject();
    const attempts = await Promise.allSettled(
      ['Nightly import', 'nightly import', 'NIGHTLY IMPORT', 'Nightly Import'].map((name) =>
        ctx.store.createClient({ projectId: project.id, name, scopes: ['email'], secretHash: 'h' }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const attempt of attempts.filter((a) => a.status === 'rejected'))
      expect(attempt.reason).toMatchObject({ code: 'client_name_taken' });
    expect(await ctx.store.listClients(project.id)).toHaveLength(1);
  });

  it('refuses OAuth clients for a project on the free plan', async () => {
    const project = await newProject('free');
    const attempt = ctx.store.createClient({ projectId: project.id, name: 'x', scopes: ['email'], secretHash: 'h' });
    await expect(attempt).rejects.toMatchObject({ name: 'StoreError', code: 'plan_forbids_oauth' });
    expect(await ctx.store.listClients(project.id)).toEqual([]);
  });

  it('refuses a client for a project that does not exist', async () => {
    const attempt = ctx.store.createClient({ projectId: 'prj_missing', name: 'x', scopes: ['email'], secretHash: 'h' });
    await expect(attempt).rejects.toBeInstanceOf(StoreError);
    await expect(attempt).rejects.toMatchObject({ code: 'project_not_found' });
  });

  it('lists the clients of one project only, oldest first', async () => {
    const [a, b] = [await newProject(), await newProject()];
    const first = await ctx.store.createClient({ projectId: a.id, name: 'first', scopes: ['email'], secretHash: 'h' });
    ctx.clock.set(ctx.clock.now() + 1000);
    const second = await ctx.store.createClient({
      projectId: a.id,
      name: 'second',
      scopes: ['phone'],
      secretHash: 'h',
    });
    await ctx.store.createClient({ projectId: b.id, name: 'other', scopes: ['phone'], secretHash: 'h' });
    expect(await ctx.store.listClients(a.id)).toEqual([first, second]);
  });

  it('raises the generation on every disable, concurrent ones included, and never on enable', async () => {
    const project = await newProject();
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'g',
      scopes: ['email'],
      secretHash: 'h',
    });
    const disables = await Promise.all([1, 2, 3].map(() => ctx.store.setClientEnabled(client.clientId, false)));
    expect(disables.map((c) => c?.generation).sort()).toEqual([1, 2, 3]);
    expect((await ctx.store.setClientEnabled(client.clientId, true))?.generation).toBe(3);
    expect((await ctx.store.getClient(client.clientId))?.generation).toBe(3);
    expect(await ctx.store.raiseClientGeneration(client.clientId)).toBe(4);
    expect(await ctx.store.getClient(client.clientId)).toMatchObject({ enabled: true, generation: 4 });
    expect(await ctx.store.raiseClientGeneration('cli_missing')).toBeNull();
  });

  it('deletes a client once, announcing it to every replica, and frees its name in the project', async () => {
    const project = await newProject();
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'gone',
      scopes: ['phone'],
      secretHash: 'h',
    });
    const seen: string[] = [];
    const unsubscribe = ctx.store.onChange((change) => {
      if (change.kind === 'client' && change.id) seen.push(change.id);
    });
    expect(await ctx.store.deleteClient(client.clientId)).toEqual(client);
    expect(seen).toContain(client.clientId);
    unsubscribe();
    expect(await ctx.store.getClient(client.clientId)).toBeNull();
    expect(await ctx.store.deleteClient(client.clientId)).toBeNull();
    const again = await ctx.store.createClient({
      projectId: project.id,
      name: 'gone',
      scopes: ['email'],
      secretHash: 'h',
    });
    expect(await ctx.store.listClients(project.id)).toEqual([again]);
  });

  it('disables and re-enables a client, and answers null for an unknown one', async () => {
    const project = await newProject();
    const client = await ctx.store.createClient({
      projectId: project.id,
      name: 'x',
      scopes: ['email'],
      secretHash: 'h',
    });
    expect(client.generation).toBe(0);
    expect(await ctx.store.setClientEnabled(client.clientId, false)).toEqual({
      ...client,
      enabled: false,
      generation: 1,
    });
    expect((await ctx.store.getClient(client.clientId))?.enabled).toBe(false);
    expect(await ctx.store.setClientEnabled(client.clientId, true)).toMatchObject({ enabled: true, generation: 1 });
    expect(await ctx.store.setClientEnabled('cli_missing', false)).toBeNull();
    expect(await ctx.store.getClient('cli_missing')).toBeNull();
  });
}
