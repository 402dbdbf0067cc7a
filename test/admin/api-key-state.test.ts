import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, type AdminService, createAdminService } from '#admin';
import type { Role } from '#store';
import { type Harness, logSink, startHarness } from '../issuer/harness.ts';

const operator: Actor = { kind: 'operator', address: '127.0.0.1' };

/** A person signed in to the portal, with these roles. */
const person = (email: string, roles: Record<string, Role>): Actor => ({
  kind: 'person',
  userId: `usr_${email.split('@')[0]}`,
  email,
  roles,
  session: 'label',
  address: '127.0.0.2',
});

/**
 * Who may disable and enable an API key through the admin service: the operator, an owner or a
 * developer of its account; a viewer sees it but is refused (403); anyone else gets the 404 of a
 * key that does not exist. Each change is logged in the account's activity.
 */
describe('disabling and enabling an API key in the admin service', () => {
  let h: Harness;
  let service: AdminService;
  let accountId: string;
  let otherAccountId: string;
  let key: string;
  beforeAll(async () => {
    h = await startHarness();
    service = createAdminService({ store: h.store, issuer: h.issuer, log: logSink().log });
    const project = await h.store.createProject({ name: 'keys', plan: 'free' });
    accountId = project.accountId;
    otherAccountId = (await h.store.createProject({ name: 'other', plan: 'free' })).accountId;
    key = (await service.createApiKey(operator, project.id)).apiKey.key;
  });
  afterAll(async () => {
    await h?.close();
  });

  const latest = async () => (await h.store.listActivity(accountId, 1))[0];

  it('lets an owner, a developer and the operator disable and enable it, logging who did which', async () => {
    const actors: Array<[Actor, string]> = [
      [person('owner@acme.example', { [accountId]: 'owner' }), 'owner@acme.example'],
      [person('dev@acme.example', { [otherAccountId]: 'viewer', [accountId]: 'developer' }), 'dev@acme.example'],
      [operator, 'operator'],
    ];
    for (const [actor, who] of actors) {
      expect(await service.setApiKeyEnabled(actor, key, false)).toMatchObject({ key, enabled: false });
      expect(await h.store.getApiKey(key)).toMatchObject({ enabled: false });
      expect(await latest()).toMatchObject({ actor: who, action: 'api_key.disable', target: key });
      expect(await service.setApiKeyEnabled(actor, key, true)).toMatchObject({ key, enabled: true });
      expect(await latest()).toMatchObject({ actor: who, action: 'api_key.enable', target: key });
    }
  });

  it('refuses a viewer with 403, changing and logging nothing', async () => {
    const viewer = person('viewer@acme.example', { [accountId]: 'viewer' });
    const before = await latest();
    for (const enabled of [false, true])
      await expect(service.setApiKeyEnabled(viewer, key, enabled)).rejects.toMatchObject({
        kind: 'forbidden',
        status: 403,
      });
    expect(await h.store.getApiKey(key)).toMatchObject({ enabled: true });
    expect(await latest()).toEqual(before);
  });

  it('answers another account’s person, and an unknown or impossible key, 404 alike', async () => {
    const stranger = person('spy@other.example', { [otherAccountId]: 'owner' });
    const notFound = (id: string) => ({
      kind: 'not_found',
      status: 404,
      message: `api key ${JSON.stringify(id)} does not exist`,
    });
    await expect(service.setApiKeyEnabled(stranger, key, false)).rejects.toMatchObject(notFound(key));
    for (const id of ['key_0000000000000000000000', 'key_\u0000'])
      await expect(service.setApiKeyEnabled(operator, id, false)).rejects.toMatchObject(notFound(id));
    expect(await h.store.getApiKey(key)).toMatchObject({ enabled: true });
    expect(await h.store.listActivity(otherAccountId, 10)).toEqual([]);
  });
});
