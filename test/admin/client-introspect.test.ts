import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, type AdminService, createAdminService, createClientInput, parseInput } from '#admin';
import { type Harness, logSink, startHarness } from '../issuer/harness.ts';

const operator: Actor = { kind: 'operator', address: '127.0.0.1' };

/**
 * Only the operator grants the introspection permission: an owner of the account may create
 * clients, but not one that may introspect (it would learn about every client's tokens).
 */
describe('the introspection permission at client creation', () => {
  let h: Harness;
  let service: AdminService;
  let projectId: string;
  let owner: Actor;
  beforeAll(async () => {
    h = await startHarness();
    service = createAdminService({ store: h.store, issuer: h.issuer, log: logSink().log });
    const project = await h.store.createProject({ name: 'p', plan: 'business' });
    projectId = project.id;
    owner = {
      kind: 'person',
      userId: 'usr_owner',
      email: 'owner@example.com',
      roles: { [project.accountId]: 'owner' },
      session: 'label',
      address: '127.0.0.2',
    };
  });
  afterAll(async () => {
    await h?.close();
  });

  const input = (body: Record<string, unknown>) => parseInput(createClientInput, { scopes: ['phone'], ...body });

  it('refuses an owner a client created with introspect (403 forbidden), and creates it without', async () => {
    await expect(service.createClient(owner, projectId, input({ name: 'rs', introspect: true }))).rejects.toMatchObject(
      {
        kind: 'forbidden',
      },
    );
    const plain = await service.createClient(owner, projectId, input({ name: 'plain' }));
    expect(plain.client.introspect).toBe(false);
    expect((await h.store.listClients(projectId)).map((c) => c.name)).toEqual(['plain']);
  });

  it('creates a client that may introspect for the operator', async () => {
    const created = await service.createClient(operator, projectId, input({ name: 'rs', introspect: true }));
    expect(created.client.introspect).toBe(true);
    expect((await h.store.getClient(created.client.clientId))?.introspect).toBe(true);
  });

  it('refuses introspect that is not a boolean', () => {
    expect(() => input({ name: 'x', introspect: 'yes' })).toThrow('introspect: must be true or false');
  });
});
