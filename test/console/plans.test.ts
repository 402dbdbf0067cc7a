import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { createProjectViaPortal, type PortalClient, startSignedInConsole } from './console-client.ts';

describe('portal plans, projects and client states', () => {
  let t: TestUpstream;
  let c: PortalClient;
  beforeAll(async () => {
    ({ t, c } = await startSignedInConsole());
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('shows a free project its plan and a clear message instead of the client form, and refuses a client for it', async () => {
    const id = await createProjectViaPortal(c, 'Hobby', 'free');
    const list = await c.get('/console/projects');
    expect(list.text).toMatch(/Hobby<\/a>.*?badge-free">free<\/span>.*?Not on the free plan/s);
    const tab = await c.get(`/console/projects/${id}/credentials/oauth-clients`);
    expect(tab.text).toContain('OAuth 2.0 clients need a business or enterprise plan');
    expect(tab.text).not.toContain('Create new client');
    expect((await c.get(`/console/projects/${id}/credentials/oauth-clients/new`)).status).toBe(409);
    const forced = await c.post(`/console/projects/${id}/credentials/oauth-clients`, { name: 'x', scopes: ['email'] });
    expect(forced.status).toBe(409);
    expect(forced.text).toContain('does not allow OAuth clients');
  });

  it('re-shows the project form with the admin API message and the escaped input when the name is bad', async () => {
    await c.get('/console/projects');
    const res = await c.post('/console/projects', { name: 'x'.repeat(101), plan: 'business' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Project name: at most 100 characters');
    expect(res.text).toContain('aria-invalid="true"');
  });

  it('escapes names everywhere they are shown', async () => {
    const id = await createProjectViaPortal(c, '<img src=x onerror=alert(1)>', 'business');
    for (const path of ['/console/projects', `/console/projects/${id}`, `/console/projects/${id}/credentials`]) {
      const page = await c.get(path);
      expect(page.text, path).not.toContain('<img src=x');
      expect(page.text, path).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });

  it('asks for a name and at least one scope, then disables with a confirmation that says tokens are revoked, and enables again', async () => {
    const id = await createProjectViaPortal(c, 'Shop', 'enterprise');
    await c.get(`/console/projects/${id}/credentials/oauth-clients/new`);
    const noScope = await c.post(`/console/projects/${id}/credentials/oauth-clients`, { name: 'api' });
    expect(noScope.status).toBe(400);
    expect(noScope.text).toContain('Select at least one scope.');
    const created = await c.post(`/console/projects/${id}/credentials/oauth-clients`, { name: 'api', scopes: 'phone' });
    const clientId = /id="client-id">([^<]+)</.exec(created.text)?.[1] ?? '';
    const confirm = await c.get(`/console/projects/${id}/oauth-clients/${clientId}/disable`);
    expect(confirm.text).toContain('Disabling revokes every outstanding access token of this client.');
    const disabled = await c.follow(await c.post(`/console/projects/${id}/oauth-clients/${clientId}/disable`));
    expect(disabled.text).toContain('disabled; its outstanding tokens are revoked');
    expect((await t.admin('GET', `/projects/${id}/clients`)).body).toEqual([
      expect.objectContaining({ client_id: clientId, enabled: false }),
    ]);
    const enabled = await c.follow(await c.post(`/console/projects/${id}/oauth-clients/${clientId}/enable`));
    expect(enabled.text).toContain('enabled.');
    expect((await t.admin('GET', `/projects/${id}/clients`)).body).toEqual([
      expect.objectContaining({ client_id: clientId, enabled: true }),
    ]);
  });

  it('answers 404 for a client of another project', async () => {
    const a = await createProjectViaPortal(c, 'A', 'business');
    const b = await createProjectViaPortal(c, 'B', 'business');
    const made = (await t.admin('POST', `/projects/${a}/clients`, { name: 'c', scopes: ['email'] })).body as {
      client_id: string;
    };
    expect((await c.get(`/console/projects/${b}/oauth-clients/${made.client_id}/disable`)).status).toBe(404);
    expect((await c.get('/console/projects/prj_missing')).status).toBe(404);
  });

  it('answers its 404 page to a project or client id no id can be (a NUL byte PostgreSQL refuses), logging no error', async () => {
    const id = await createProjectViaPortal(c, 'Nul', 'business');
    const logged = t.logs().length;
    const paths = [
      '/console/projects/%00',
      '/console/projects/%00/keys',
      '/console/projects/%00/credentials',
      '/console/projects/%00/credentials/oauth-clients',
      `/console/projects/${id}/oauth-clients/%00/disable`,
      `/console/projects/${id}/oauth-clients/cli_%00x/disable`,
    ];
    for (const path of paths) {
      const res = await c.get(path);
      expect(res.status, path).toBe(404);
      expect(res.text).toContain('<h1>Not found</h1>');
    }
    await c.get(`/console/projects/${id}`);
    for (const path of [
      `/console/projects/${id}/oauth-clients/%00/disable`,
      `/console/projects/${id}/oauth-clients/%00/enable`,
      '/console/projects/%00/credentials/api-keys',
    ]) {
      expect((await c.post(path)).status, path).toBe(404);
    }
    expect(t.logs().slice(logged)).not.toContain('"level":50');
  });

  it('lists the signing keys with their states and rotates them', async () => {
    const before = (await t.admin('GET', '/keys')).body as Array<{ kid: string; status: string }>;
    const page = await c.get('/console/signing-keys');
    for (const key of before) expect(page.text).toContain(key.kid);
    const rotated = await c.follow(await c.post('/console/signing-keys/rotate'));
    const active = ((await t.admin('GET', '/keys')).body as Array<{ kid: string; status: string }>).find(
      (key) => key.status === 'active',
    );
    expect(rotated.text).toContain(`Signing keys rotated. Active key: ${active?.kid}.`);
    expect(active?.kid).not.toBe(before.find((key) => key.status === 'active')?.kid);
  });

  it('refuses a rotation while the next key is young, saying from when, and rotates at once in an emergency', async () => {
    await c.follow(await c.post('/console/signing-keys/rotate', { now: 'yes' }));
    const keys = (await t.admin('GET', '/keys')).body as Array<{ kid: string; status: string; promotable_at: string }>;
    const next = keys.find((key) => key.status === 'next');
    const page = await c.get('/console/signing-keys');
    expect(page.text).toContain('Rotate now (emergency)');
    expect(page.text).toContain('May sign from');
    const refused = await c.follow(await c.post('/console/signing-keys/rotate'));
    expect(refused.text).toContain(`Rotation failed: the next signing key has been published for`);
    expect(refused.text).toContain(`rotate at or after ${next?.promotable_at}`);
    const emergency = await c.follow(await c.post('/console/signing-keys/rotate', { now: 'yes' }));
    expect(emergency.text).toContain(`Signing keys rotated (emergency). Active key: ${next?.kid}.`);
  });
});
