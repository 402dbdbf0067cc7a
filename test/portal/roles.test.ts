import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, member, type PeopleClient, type TestAccount } from './people-client.ts';

type Json = Record<string, unknown>;

/** What each role of one account may do there: owners everything, developers no people, viewers nothing but look. */
describe('roles within an account', () => {
  let t: TestUpstream;
  let acme: TestAccount;
  let project = '';
  let client = '';
  let secret = '';
  let apiKey = '';
  const people: Record<'owner' | 'developer' | 'viewer', PeopleClient> = {} as never;

  beforeAll(async () => {
    t = await startTestUpstream({ routes: [] });
    acme = await createAccount(t, 'Acme');
    for (const role of ['owner', 'developer', 'viewer'] as const)
      people[role] = await member(t, acme, `${role}@acme.example`, role);
    project = String(((await t.admin('POST', `/accounts/${acme.id}/projects`, { name: 'web' })).body as Json)['id']);
    const created = (await t.admin('POST', `/projects/${project}/clients`, { name: 'svc', scopes: ['phone'] }))
      .body as Json;
    client = String(created['client_id']);
    secret = String(created['client_secret']);
    apiKey = String(((await t.admin('POST', `/projects/${project}/apikeys`)).body as Json)['key']);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const changes = async (): Promise<Array<[string, Record<string, string | string[]>]>> => [
    [`/portal/projects/${project}/credentials/oauth-clients`, { name: `c-${Math.random()}`, scopes: ['phone'] }],
    [`/portal/projects/${project}/credentials/api-keys`, {}],
    [`/portal/projects/${project}/api-keys/${apiKey}/disable`, {}],
    [`/portal/projects/${project}/api-keys/${apiKey}/enable`, {}],
    [`/portal/projects/${project}/api-keys/${apiKey}/delete`, {}],
    [`/portal/projects/${project}/oauth-clients/${client}/disable`, {}],
    [`/portal/projects/${project}/oauth-clients/${client}/enable`, {}],
    ['/portal/projects', { name: `p-${Math.random()}`, account: acme.id }],
    ['/portal/tokens/revoke', { token: await clientCredentialsToken(t.upstream.url, client, secret) }],
    [`/portal/projects/${project}/oauth-clients/${client}/delete`, {}],
  ];

  it('lets a viewer see the project, its clients and keys, but refuses every change with 403 and shows no create button', async () => {
    const c = people.viewer;
    const tab = await c.get(`/portal/projects/${project}/credentials/oauth-clients`);
    expect(tab.status).toBe(200);
    expect(tab.text).toContain('svc');
    expect(tab.text).not.toContain('Create new client');
    expect(tab.text).not.toMatch(/>Disable</);
    const keys = await c.get(`/portal/projects/${project}/credentials/api-keys`);
    expect(keys.text).not.toContain('Create API key');
    expect(keys.text).toContain(apiKey);
    expect(keys.text).toContain('Enabled');
    expect(keys.text).not.toMatch(/>Disable</);
    for (const [path, form] of await changes()) {
      const res = await c.post(path, form);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
    expect(((await t.admin('GET', `/projects/${project}/clients`)).body as Json[]).length).toBe(1);
  });

  it('lets a developer change projects, clients, keys and tokens', async () => {
    const c = people.developer;
    await c.get('/portal/projects');
    for (const [path, form] of await changes()) {
      const res = await c.post(path, form);
      expect({ path, ok: res.status === 201 || res.status === 303 }).toEqual({ path, ok: true });
    }
  });

  it('offers a developer the scopes of the plan and refuses a forged scope beyond them by name', async () => {
    const c = people.developer;
    const form = await c.get(`/portal/projects/${project}/credentials/oauth-clients/new`);
    expect([...form.text.matchAll(/name="scopes" value="(\w+)"/g)].map((m) => m[1])).toEqual([
      'address',
      'phone',
      'email',
    ]);
    const before = ((await t.admin('GET', `/projects/${project}/clients`)).body as Json[]).length;
    const forged = await c.post(`/portal/projects/${project}/credentials/oauth-clients`, {
      name: 'forged',
      scopes: ['phone', 'billing<b>'],
    });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain(
      'The scope “billing&lt;b&gt;” is not one the business plan offers. Choose from address, phone, email.',
    );
    expect(((await t.admin('GET', `/projects/${project}/clients`)).body as Json[]).length).toBe(before);
  });

  it('keeps people to owners: a developer or viewer cannot invite, change a role or remove anyone (403)', async () => {
    const peoplePage = await people.owner.get('/portal/people');
    const ownerId = /\/people\/(usr_[\w-]+)\/role/.exec(peoplePage.text)?.[1] ?? '';
    for (const role of ['developer', 'viewer'] as const) {
      const c = people[role];
      const page = await c.get('/portal/people');
      expect(page.text).not.toContain('Create invitation link');
      for (const [path, form] of [
        [`/portal/accounts/${acme.id}/invitations`, { email: 'x@acme.example', role: 'owner' }],
        [`/portal/accounts/${acme.id}/people/${ownerId}/role`, { role: 'viewer' }],
        [`/portal/accounts/${acme.id}/people/${ownerId}/remove`, {}],
      ] as const) {
        const res = await c.post(path, form);
        expect({ role, path, status: res.status }).toEqual({ role, path, status: 403 });
      }
    }
  });

  it('lets an owner invite, change roles and remove people, but never the last owner', async () => {
    const c = people.owner;
    const page = await c.get('/portal/people');
    const ids = [...page.text.matchAll(/\/people\/(usr_[\w-]+)\/role/g)].map((m) => m[1] ?? '');
    const ownerId = ids[0] ?? '';
    const demote = await c.post(`/portal/accounts/${acme.id}/people/${ownerId}/role`, { role: 'viewer' });
    expect(demote.status).toBe(303);
    expect((await c.get('/portal/people')).text).toContain('an account keeps at least one owner');
    const invited = await c.post(`/portal/accounts/${acme.id}/invitations`, {
      email: 'new@acme.example',
      role: 'viewer',
    });
    expect(invited.status).toBe(201);
    expect(invited.text).toMatch(/\/portal\/invitation\?token=[\w-]{43}/);
    const viewerId = ids[2] ?? '';
    expect((await c.post(`/portal/accounts/${acme.id}/people/${viewerId}/remove`)).status).toBe(303);
    // Removed: the viewer's session sees no account any more.
    expect((await people.viewer.get(`/portal/projects/${project}`)).status).toBe(404);
  });
});
