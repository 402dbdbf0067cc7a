import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURE_LIMIT } from '../../src/portal/auth/login-limiter.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { PortalClient, startPortal } from './console-client.ts';

describe('portal sign-in', () => {
  let t: TestUpstream;
  let client: () => PortalClient;
  beforeAll(async () => {
    ({ t, client } = await startPortal());
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('exchanges the admin token for an HttpOnly, SameSite=Strict session cookie scoped to /console that expires in 8 hours', async () => {
    const c = client();
    const res = await c.signIn(t.adminToken);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/projects');
    const session = res.headers.getSetCookie().find((cookie) => cookie.startsWith('tokengate_portal='));
    expect(session).toMatch(
      /^tokengate_portal=[A-Za-z0-9_-]{43}; Path=\/console; Max-Age=28800; HttpOnly; SameSite=Strict$/,
    );
    expect((await c.get('/console/projects')).status).toBe(200);
  });

  it('marks the session cookie Secure when the request came over TLS (X-Forwarded-Proto: https)', async () => {
    const c = client();
    await c.request('GET', '/console/login', { headers: { 'x-forwarded-proto': 'https' } });
    const res = await c.post('/console/login', { admin_token: t.adminToken }, { 'x-forwarded-proto': 'https' });
    expect(res.headers.getSetCookie().find((cookie) => cookie.startsWith('tokengate_portal='))).toMatch(/; Secure$/);
  });

  it('refuses a wrong admin token with 401, sets no session cookie and logs neither token', async () => {
    const c = client();
    const res = await c.signIn('not-the-admin-token');
    expect(res.status).toBe(401);
    expect(res.text).toContain('That admin token is not correct.');
    expect(c.cookies.has('tokengate_portal')).toBe(false);
    expect((await c.get('/console/projects')).headers.get('location')).toBe('/console/login');
    expect(t.logs()).not.toContain('not-the-admin-token');
    expect(t.logs()).not.toContain(t.adminToken);
  });

  it('refuses a sign-in form that lacks the sign-in nonce cookie (another site cannot sign a browser in)', async () => {
    const c = client();
    await c.get('/console/login');
    c.cookies.clear();
    const res = await c.post('/console/login', { admin_token: t.adminToken });
    expect(res.status).toBe(403);
    expect(c.cookies.has('tokengate_portal')).toBe(false);
  });

  it('signs in from any of several sign-in pages open in one browser, and a sign-in page left open after that leads to the portal', async () => {
    const c = client();
    await c.get('/console/login');
    const firstTab = c.csrfToken();
    await c.get('/console/login');
    const secondTab = c.csrfToken();
    const signedIn = await c.request('POST', '/console/login', {
      form: { csrf_token: firstTab, admin_token: t.adminToken },
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/console/projects');
    expect((await c.get('/console/projects')).status).toBe(200);
    // The other tab, posted once signed in: the nonce cookie is gone, the session is there.
    const later = await c.request('POST', '/console/login', {
      form: { csrf_token: secondTab, admin_token: t.adminToken },
    });
    expect(later.status).toBe(303);
    expect(later.headers.get('location')).toBe('/console/projects');
    expect((await c.get('/console/projects')).status).toBe(200);
    // Without the session the same stale form is still refused.
    const anonymous = client();
    const refused = await anonymous.request('POST', '/console/login', {
      form: { csrf_token: secondTab, admin_token: t.adminToken },
    });
    expect(refused.status).toBe(403);
    expect(anonymous.cookies.has('tokengate_portal')).toBe(false);
  });

  it('redirects every page to the sign-in page without a session, and sign-out ends the session on the server', async () => {
    const anonymous = client();
    for (const path of ['/console', '/console/projects', '/console/signing-keys', '/console/tokens/revoke']) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location')).toBe('/console/login');
    }
    const c = client();
    await c.signIn(t.adminToken);
    await c.get('/console/projects');
    const stolen = c.cookies.get('tokengate_portal') ?? '';
    const out = await c.post('/console/logout');
    expect(out.headers.get('location')).toBe('/console/login');
    expect(out.headers.getSetCookie()[0]).toMatch(/^tokengate_portal=; Path=\/console; Max-Age=0/);
    const replay = new PortalClient(c.base);
    replay.cookies.set('tokengate_portal', stolen);
    expect((await replay.get('/console/projects')).headers.get('location')).toBe('/console/login');
  });

  it('sends the security headers and no-store on every page', async () => {
    const c = client();
    await c.signIn(t.adminToken);
    for (const path of ['/console/login', '/console/projects', '/console/signing-keys', '/console/nope']) {
      const res = await c.get(path);
      expect(res.headers.get('content-security-policy'), path).toMatch(
        /default-src 'none'.*script-src 'self'.*frame-ancestors 'none'/,
      );
      expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    const script = await c.get('/console/assets/app.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('signs in with an ADMIN_TOKEN longer than 512 characters, which the CLI accepts too', async () => {
    const long = `${'Kq7-'.repeat(250)}end`;
    const own = await startTestUpstream({ routes: [], env: { ADMIN_TOKEN: long } });
    try {
      const c = new PortalClient(own.upstream.adminUrl);
      const login = await c.get('/console/login');
      expect(login.text).not.toMatch(/id="admin-token"[^>]*maxlength/);
      const res = await c.signIn(long);
      expect(res.status).toBe(303);
      expect((await c.get('/console/projects')).status).toBe(200);
      expect((await new PortalClient(own.upstream.adminUrl).signIn(`${long}x`)).status).toBe(401);
    } finally {
      await own.destroy();
    }
    // An upstream of its own (a fresh embedded store): seconds idle, past 20 s on a loaded machine.
  }, 120_000);

  it('leaves the one-shot notice for the GET when a HEAD of the page comes first (a HEAD shows no page)', async () => {
    // Regression: HEAD rendered the page, so it took the notice, and the page a person then opened never said "created".
    const c = client();
    await c.signIn(t.adminToken);
    await c.get('/console/projects');
    const created = await c.post('/console/projects', { name: 'Noticed', plan: 'free' });
    const location = created.headers.get('location') ?? '';
    expect((await c.request('HEAD', location)).status).toBe(200);
    expect((await c.get(location)).text).toContain('Project “Noticed” created.');
  });

  it('answers HEAD like GET, without a body: sign-in page, a page behind the session, its redirect when signed out, an asset', async () => {
    const c = client();
    await c.signIn(t.adminToken);
    const cases: Array<[PortalClient, string, number]> = [
      [client(), '/console/login', 200],
      [c, '/console/projects', 200],
      [client(), '/console/projects', 303],
      [client(), '/console/assets/portal.css', 200],
      [client(), '/console/nope', 404],
    ];
    for (const [who, path, status] of cases) {
      const get = await who.request('GET', path);
      const head = await who.request('HEAD', path);
      expect(head.status, path).toBe(status);
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(head.headers.get('location'), path).toBe(get.headers.get('location'));
      expect(head.headers.get('content-security-policy'), path).toBe(get.headers.get('content-security-policy'));
      expect(head.text, path).toBe('');
    }
  });

  it('opens no admin API route with a portal session: those still need the admin token', async () => {
    const c = client();
    await c.signIn(t.adminToken);
    await c.get('/console/projects');
    for (const path of ['/projects', '/keys', '/consolex']) expect((await c.get(path)).status, path).toBe(401);
    // fetch would normalise the dot segments; a raw request keeps them. The portal answers it (404), not the admin API.
    const raw = await rawGet(`${c.base}/console/../projects`, `tokengate_portal=${c.cookies.get('tokengate_portal')}`);
    expect(raw.status).toBe(404);
    expect(raw.body).not.toContain('"plan"');
  });

  it('answers wrong tokens from an address past 5 failed sign-ins with 429 and Retry-After, and still signs the correct token in', async () => {
    // Someone else on the operator's address (every local user is 127.0.0.1) tries junk first;
    // earlier tests in this file failed from this address too, so some of these may get 429 already.
    const other = client();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++)
      expect([401, 429]).toContain((await other.signIn(`wrong-${i}`)).status);
    const throttled = await other.signIn('wrong-5');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.text).toContain('Too many failed sign-ins');
    expect(other.cookies.has('tokengate_portal')).toBe(false);

    const operator = client();
    const signedIn = await operator.signIn(t.adminToken);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/console/projects');
    expect((await operator.get('/console/projects')).status).toBe(200);
    // The correct token cleared nothing for the others on the address.
    expect((await other.signIn('wrong-6')).status).toBe(429);
  });

  describe('assets', () => {
    /** The versioned URLs a page links its stylesheet, scripts and icon by. */
    async function linked(c: PortalClient): Promise<string[]> {
      const page = await c.get('/console/login');
      return [...page.text.matchAll(/(?:href|src)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    }

    it('links every asset by its content version and lets the browser keep it until it changes', async () => {
      const c = client();
      const urls = await linked(c);
      expect(urls.map((u) => u.replace(/\?v=[A-Za-z0-9_-]{16}$/, ''))).toEqual([
        '/console/assets/favicon.svg',
        '/console/assets/portal.css',
        '/console/assets/app.js',
      ]);
      for (const url of urls) {
        const res = await c.get(url);
        expect(res.status, url).toBe(200);
        expect(res.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
        expect(res.headers.get('etag'), url).toBe(`"${url.split('?v=')[1]}"`);
        expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
      }
    });

    it('has an unversioned or outdated URL revalidated, and answers a matching If-None-Match with 304 and no body', async () => {
      const c = client();
      const css = (await linked(c)).find((u) => u.includes('portal.css')) as string;
      const version = css.split('?v=')[1] as string;
      for (const url of ['/console/assets/portal.css', '/console/assets/portal.css?v=AAAAAAAAAAAAAAAA']) {
        const res = await c.get(url);
        expect(res.status, url).toBe(200);
        expect(res.headers.get('cache-control'), url).toBe('no-cache');
      }
      for (const tag of [`"${version}"`, `W/"${version}"`, `"other", "${version}"`, '*']) {
        const res = await c.request('GET', css, { headers: { 'if-none-match': tag } });
        expect(res.status, tag).toBe(304);
        expect(res.text, tag).toBe('');
        expect(res.headers.get('etag')).toBe(`"${version}"`);
      }
      const changed = await c.request('GET', css, { headers: { 'if-none-match': '"older-version"' } });
      expect(changed.status).toBe(200);
      expect(changed.text).toContain('{');
    });
  });
});

function rawGet(url: string, cookie: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  const path = url.slice(url.indexOf('/', 'http://'.length));
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers: { cookie } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
