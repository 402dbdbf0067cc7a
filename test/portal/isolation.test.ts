import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, member, type PeopleClient } from './people-client.ts';

type Json = Record<string, unknown>;

/**
 * Strict isolation between accounts: every resource of account B, by id in a URL and by forged
 * form post, from each role of account A, is answered 404, with nothing of B in the answer or in
 * any log line but the access log's path, and B unchanged afterwards.
 */
describe('isolation between accounts in the portal', () => {
  let t: TestUpstream;
  const a = { project: '', client: '' };
  const b = { id: '', project: '', client: '', clientSecret: '', ownerId: '', token: '', apiKey: '' };
  const people: Record<'owner' | 'developer' | 'viewer', PeopleClient> = {} as never;
  /** Everything of B a leak would show. */
  const secretsOfB = () => [
    'Beta Corp',
    'beta-secret-project',
    'beta-client',
    'beta-owner@example.com',
    b.clientSecret,
  ];

  beforeAll(async () => {
    t = await startTestUpstream({ routes: [] });
    const alpha = await createAccount(t, 'Alpha Ltd');
    const beta = await createAccount(t, 'Beta Corp');
    b.id = beta.id;
    for (const role of ['owner', 'developer', 'viewer'] as const)
      people[role] = await member(t, alpha, `alpha-${role}@example.com`, role);
    const betaOwner = await member(t, beta, 'beta-owner@example.com', 'owner');
    const project = async (accountId: string, name: string) =>
      String(((await t.admin('POST', `/accounts/${accountId}/projects`, { name })).body as Json)['id']);
    a.project = await project(alpha.id, 'alpha-project');
    b.project = await project(beta.id, 'beta-secret-project');
    const client = async (projectId: string, name: string) =>
      (await t.admin('POST', `/projects/${projectId}/clients`, { name, scopes: ['phone'] })).body as Json;
    a.client = String((await client(a.project, 'alpha-client'))['client_id']);
    const created = await client(b.project, 'beta-client');
    b.client = String(created['client_id']);
    b.clientSecret = String(created['client_secret']);
    b.token = await clientCredentialsToken(t.upstream.url, b.client, b.clientSecret);
    b.apiKey = String(((await t.admin('POST', `/projects/${b.project}/apikeys`)).body as Json)['key']);
    const peoplePage = await betaOwner.get('/portal/people');
    b.ownerId = /\/people\/(usr_[\w-]+)\/role/.exec(peoplePage.text)?.[1] ?? '';
    expect(b.ownerId).toMatch(/^usr_/);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const pages = () => [
    `/portal/projects/${b.project}`,
    `/portal/projects/${b.project}/keys`,
    `/portal/projects/${b.project}/credentials`,
    `/portal/projects/${b.project}/credentials/api-keys`,
    `/portal/projects/${b.project}/credentials/oauth-clients`,
    `/portal/projects/${b.project}/credentials/oauth-clients/new`,
    `/portal/projects/${b.project}/oauth-clients/${b.client}/disable`,
    // A's own project in the path, B's client after it.
    `/portal/projects/${a.project}/oauth-clients/${b.client}/disable`,
    `/portal/projects/${b.project}/api-keys/${b.apiKey}/delete`,
    `/portal/projects/${a.project}/api-keys/${b.apiKey}/delete`,
    `/portal/projects/${b.project}/api-keys/${b.apiKey}/disable`,
    `/portal/projects/${a.project}/api-keys/${b.apiKey}/disable`,
    `/portal/projects/${b.project}/oauth-clients/${b.client}/delete`,
    `/portal/projects/${a.project}/oauth-clients/${b.client}/delete`,
    `/portal/projects/${b.project}/oauth-clients/${b.client}`,
    `/portal/projects/${a.project}/oauth-clients/${b.client}`,
  ];
  const posts = (): Array<[string, Record<string, string | string[]>]> => [
    [`/portal/projects/${b.project}/credentials/api-keys`, {}],
    [`/portal/projects/${b.project}/credentials/oauth-clients`, { name: 'stolen', scopes: ['phone'] }],
    [`/portal/projects/${b.project}/oauth-clients/${b.client}/disable`, {}],
    [`/portal/projects/${b.project}/oauth-clients/${b.client}/enable`, {}],
    [`/portal/projects/${a.project}/oauth-clients/${b.client}/disable`, {}],
    [`/portal/projects/${b.project}/api-keys/${b.apiKey}/delete`, {}],
    [`/portal/projects/${a.project}/api-keys/${b.apiKey}/delete`, {}],
    [`/portal/projects/${b.project}/api-keys/${b.apiKey}/disable`, {}],
    [`/portal/projects/${a.project}/api-keys/${b.apiKey}/disable`, {}],
    [`/portal/projects/${b.project}/api-keys/${b.apiKey}/enable`, {}],
    [`/portal/projects/${a.project}/api-keys/${b.apiKey}/enable`, {}],
    [`/portal/projects/${b.project}/oauth-clients/${b.client}/delete`, {}],
    [`/portal/projects/${a.project}/oauth-clients/${b.client}/delete`, {}],
    [`/portal/projects/${b.project}/oauth-clients/${b.client}/dpop`, { required: '1' }],
    [`/portal/projects/${a.project}/oauth-clients/${b.client}/dpop`, { required: '1' }],
    [`/portal/projects/${b.project}/oauth-clients/${b.client}/keys`, { jwks: '{"keys": []}' }],
    ['/portal/projects', { name: 'planted', account: b.id }],
    [`/portal/accounts/${b.id}/invitations`, { email: 'spy@example.com', role: 'owner' }],
    [`/portal/accounts/${b.id}/people/${b.ownerId}/role`, { role: 'viewer' }],
    [`/portal/accounts/${b.id}/people/${b.ownerId}/remove`, {}],
    ['/portal/tokens/revoke', { token: b.token }],
  ];
  const leaks = (text: string) => secretsOfB().filter((s) => text.includes(s));

  for (const role of ['owner', 'developer', 'viewer'] as const) {
    it(`answers a ${role} of another account 404 for every page of B's, by URL, with nothing of B in it`, async () => {
      const c = people[role];
      for (const path of pages()) {
        const res = await c.get(path);
        expect({
          path,
          status: res.status,
          leaks: leaks(res.text),
          ids: [b.id, b.project, b.client, b.apiKey].filter((id) => res.text.includes(id)),
        }).toEqual({
          path,
          status: 404,
          leaks: [],
          ids: [],
        });
      }
    });

    it(`answers a ${role} of another account 404 for every forged form post at B's resources, changing nothing`, async () => {
      const c = people[role];
      await c.get('/portal/projects');
      for (const [path, form] of posts()) {
        const res = await c.post(path, form);
        expect({
          path,
          status: res.status,
          leaks: leaks(res.text),
          ids: [b.id, b.project, b.client, b.ownerId, b.apiKey].filter((id) => res.text.includes(id)),
        }).toEqual({
          path,
          status: 404,
          leaks: [],
          ids: [],
        });
      }
    });
  }

  it('leaves B as it was: its client enabled and working, no new key, client, project or person, its owner an owner', async () => {
    expect((await t.admin('GET', `/projects/${b.project}/clients`)).body).toEqual([
      expect.objectContaining({ client_id: b.client, enabled: true, require_dpop: false }),
    ]);
    const activity = (await t.admin('GET', `/accounts/${b.id}/activity`)).body as Json[];
    expect(activity.filter((e) => e['target'] === b.apiKey).map((e) => e['action'])).toEqual(['api_key.create']);
    const projects = (await t.admin('GET', '/projects')).body as Json[];
    expect(projects.filter((p) => p['account_id'] === b.id).map((p) => p['name'])).toEqual(['beta-secret-project']);
    const phone = await fetch(
      `${t.upstream.url}/api/phone/v1/verification?phone_number=%2B61298765432&default_country_code=AU`,
      { headers: { authorization: `Bearer ${b.token}` } },
    );
    // Not revoked (401 would say so); this upstream hosts no routes, hence 404.
    expect(phone.status).not.toBe(401);
  });

  it('lists only the person’s own account’s projects and people', async () => {
    for (const c of Object.values(people)) {
      for (const path of ['/portal/projects', '/portal/people', '/portal/settings']) {
        const res = await c.get(path);
        expect({ path, status: res.status, leaks: leaks(res.text) }).toEqual({ path, status: 200, leaks: [] });
        expect(res.text).not.toContain(b.project);
      }
    }
  });

  it('writes nothing of B into the log but the paths the requests named', async () => {
    const lines = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('"server":"portal"') && !line.includes('"msg":"request"'));
    for (const line of lines) expect(leaks(line)).toEqual([]);
  });
});
