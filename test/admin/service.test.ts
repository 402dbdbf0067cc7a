import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Actor,
  type AdminService,
  createAdminService,
  createClientInput,
  createProjectInput,
  parseInput,
} from '#admin';
import { openStore, type Store } from '#store';
import { migratedDataDir } from '#test/store-template.ts';
import { type Harness, logSink, startHarness } from '../issuer/harness.ts';

const operator: Actor = { kind: 'operator', address: '127.0.0.1' };

/** The service on a store that lets a test change things between the service's checks and its writes. */
describe('admin service over a real store and issuer', () => {
  let dataDir: string;
  let store: Store;
  let h: Harness;
  let service: AdminService;
  let beforeInsert: (() => Promise<void>) | undefined;
  let failListing: Error | undefined;
  beforeAll(async () => {
    dataDir = await migratedDataDir('tokengate-admin-');
    const real = await openStore({ dataDir });
    store = {
      ...real,
      async createClient(input) {
        await beforeInsert?.();
        return real.createClient(input);
      },
      listProjects: () => (failListing ? Promise.reject(failListing) : real.listProjects()),
    };
    h = await startHarness({ store });
    service = createAdminService({ store, issuer: h.issuer, log: logSink().log });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses with not_found, not a failure, when the project is deleted between the service's check and the insert", async () => {
    const project = await service.createProject(
      operator,
      parseInput(createProjectInput, { name: 'gone', plan: 'business' }),
    );
    beforeInsert = async () => void (await store.deleteProject(project.id));
    const input = parseInput(createClientInput, { name: 'c', scopes: ['email'] });
    await expect(service.createClient(operator, project.id, input)).rejects.toMatchObject({
      name: 'AdminError',
      kind: 'not_found',
      status: 404,
    });
    beforeInsert = undefined;
  });

  it('lets a failure that is no refusal through as it is (the admin API answers 500)', async () => {
    failListing = new Error('Connection terminated unexpectedly');
    await expect(service.listProjects(operator)).rejects.toBe(failListing);
    failListing = undefined;
  });
});
