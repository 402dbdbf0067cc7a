import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createProjectViaPortal, type PortalClient, startSignedInConsole } from './console-client.ts';

/** Every page a person can reach for the project, as it would be browsed later. */
const laterPages = (projectId: string) => [
  '/console/projects',
  `/console/projects/${projectId}`,
  `/console/projects/${projectId}/keys`,
  `/console/projects/${projectId}/credentials`,
  `/console/projects/${projectId}/credentials/oauth-clients`,
  `/console/projects/${projectId}/credentials/oauth-clients/new`,
  '/console/signing-keys',
  '/console/tokens/revoke',
];

describe('portal secrets are shown once', () => {
  let t: TestUpstream;
  let c: PortalClient;
  let projectId: string;
  beforeAll(async () => {
    ({ t, c } = await startSignedInConsole());
    projectId = await createProjectViaPortal(c, 'Acme', 'business');
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('shows a new client secret once, in the no-store POST response, and in no later page, URL or log line', async () => {
    await c.get(`/console/projects/${projectId}/credentials/oauth-clients/new`);
    const created = await c.post(`/console/projects/${projectId}/credentials/oauth-clients`, {
      name: 'billing-job',
      scopes: ['address', 'email'],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.headers.get('location')).toBeNull();
    expect(created.text).toContain('cannot be shown again');
    const secret = /id="client-secret"[^>]*value="([^"]+)"/.exec(created.text)?.[1] ?? '';
    const clientId = /id="client-id">([^<]+)</.exec(created.text)?.[1] ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The secret shown is the real one: the token endpoint accepts it.
    expect(await clientCredentialsToken(t.upstream.url, clientId, secret, 'email')).toMatch(/^ey/);
    for (const path of laterPages(projectId)) {
      const page = await c.get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).not.toContain(secret);
    }
    expect((await c.get(`/console/projects/${projectId}/credentials/oauth-clients`)).text).toContain(clientId);
    expect(t.logs()).not.toContain(secret);
  });

  it('shows a new API key secret once and then lists the key without it', async () => {
    await c.get(`/console/projects/${projectId}/credentials`);
    const created = await c.post(`/console/projects/${projectId}/credentials/api-keys`);
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const secret = /id="api-secret"[^>]*value="([^"]+)"/.exec(created.text)?.[1] ?? '';
    const key = /id="api-key">([^<]+)</.exec(created.text)?.[1] ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const list = await c.get(`/console/projects/${projectId}/credentials`);
    expect(list.text).toContain(key);
    for (const path of laterPages(projectId)) expect((await c.get(path)).text, path).not.toContain(secret);
    expect(t.logs()).not.toContain(secret);
  });

  it('revokes a token by JWT without echoing the token into the page or the log', async () => {
    const clients = (await t.admin('GET', `/projects/${projectId}/clients`)).body as Array<{ client_id: string }>;
    const made = (await t.admin('POST', `/projects/${projectId}/clients`, { name: 'revoke-me', scopes: ['phone'] }))
      .body as { client_id: string; client_secret: string };
    expect(clients.length).toBeGreaterThan(0);
    const token = await clientCredentialsToken(t.upstream.url, made.client_id, made.client_secret);
    await c.get('/console/tokens/revoke');
    const res = await c.post('/console/tokens/revoke', { token });
    const page = await c.follow(res);
    expect(page.text).toContain('Token revoked.');
    expect(page.text).not.toContain(token);
    expect(t.logs()).not.toContain(token);
  });

  it('logs what a person did as the portal session it came from, named by a label and never by the session id', async () => {
    const logged = t.logs().length;
    const id = await createProjectViaPortal(c, 'Logged', 'free');
    const line = t
      .logs()
      .slice(logged)
      .split('\n')
      .find((entry) => entry.includes('admin: project created'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      actor: { kind: 'console', session: expect.stringMatching(/^[\w-]{11}$/), address: expect.any(String) },
      projectId: id,
    });
    const sessionId = c.cookies.get('tokengate_portal') ?? '';
    expect(sessionId).not.toBe('');
    expect(t.logs()).not.toContain(sessionId);
  });

  it('shows the admin API refusal for a token that is not ours, without echoing it', async () => {
    await c.get('/console/tokens/revoke');
    const res = await c.post('/console/tokens/revoke', { token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.sig' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('There is a problem');
    expect(res.text).not.toContain('eyJzdWIiOiJ4In0');
  });
});
