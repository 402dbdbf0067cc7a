import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { type PortalClient, startPortal } from './console-client.ts';

describe('portal CSRF protection', () => {
  let t: TestUpstream;
  let c: PortalClient;
  let other: PortalClient;
  beforeAll(async () => {
    const started = await startPortal();
    t = started.t;
    c = started.client();
    other = started.client();
    await c.signIn(t.adminToken);
    await other.signIn(t.adminToken);
    await other.get('/console/projects');
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const projectCount = async () => ((await t.admin('GET', '/projects')).body as unknown[]).length;

  it('refuses a state-changing form without the CSRF token, or with another session token, and changes nothing', async () => {
    await c.get('/console/projects');
    const before = await projectCount();
    const missing = await c.request('POST', '/console/projects', { form: { name: 'x', plan: 'free' } });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('Request refused');
    const foreign = await c.request('POST', '/console/projects', {
      form: { name: 'x', plan: 'free', csrf_token: other.csrfToken() },
    });
    expect(foreign.status).toBe(403);
    expect(await projectCount()).toBe(before);
  });

  it('refuses a form posted from another origin or a cross-site context even with the right token', async () => {
    await c.get('/console/projects');
    const before = await projectCount();
    const crossOrigin = await c.post(
      '/console/projects',
      { name: 'x', plan: 'free' },
      { origin: 'https://evil.example' },
    );
    expect(crossOrigin.status).toBe(403);
    const crossSite = await c.post(
      '/console/projects',
      { name: 'x', plan: 'free' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    // A sandboxed frame on another site posts with `Origin: null`; its fetch metadata still tells.
    const sandboxed = await c.post(
      '/console/projects',
      { name: 'x', plan: 'free' },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
    );
    expect(sandboxed.status).toBe(403);
    expect(await projectCount()).toBe(before);
  });

  it('accepts the form from the portal own origin with the session token, including the null Origin a no-referrer page sends', async () => {
    await c.get('/console/projects');
    const res = await c.post(
      '/console/projects',
      { name: 'same-origin', plan: 'free' },
      { origin: c.base, 'sec-fetch-site': 'same-origin' },
    );
    expect(res.status).toBe(303);
    // What Chromium sends for our own form under Referrer-Policy: no-referrer.
    await c.get('/console/projects');
    const nullOrigin = await c.post(
      '/console/projects',
      { name: 'null-origin', plan: 'free' },
      { origin: 'null', 'sec-fetch-site': 'same-origin' },
    );
    expect(nullOrigin.status).toBe(303);
  });

  it('protects sign-out, client, token and key forms the same way', async () => {
    for (const path of [
      '/console/logout',
      '/console/tokens/revoke',
      '/console/signing-keys/rotate',
      '/console/projects/prj_x/credentials/oauth-clients',
    ]) {
      const res = await c.request('POST', path, { form: { token: 'x' } });
      expect(res.status, path).toBe(403);
    }
    expect((await c.get('/console/projects')).status).toBe(200);
  });
});
