import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidationRoute } from '#validation';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

type Json = Record<string, unknown>;

/** A validation route that answers with the project the caller authenticated as. */
const echoRoute: ValidationRoute = {
  path: '/api/test/echo',
  scope: 'email',
  errorExtra: { completions: [] },
  handle: (req) => ({ status: 200, body: { projectId: req.projectId, q: req.query.get('q'), success: true } }),
};

describe('upstream public server', () => {
  let t: TestUpstream;
  let projectId: string;
  let emailToken: string;
  let phoneToken: string;
  beforeAll(async () => {
    t = await startTestUpstream({ routes: [echoRoute] });
    projectId = String(((await t.admin('POST', '/projects', { name: 'p', plan: 'business' })).body as Json)['id']);
    const client = (await t.admin('POST', `/projects/${projectId}/clients`, { name: 'c', scopes: ['email', 'phone'] }))
      .body as Json;
    const id = String(client['client_id']);
    const secret = String(client['client_secret']);
    emailToken = await clientCredentialsToken(t.upstream.url, id, secret, 'email');
    phoneToken = await clientCredentialsToken(t.upstream.url, id, secret, 'phone');
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.upstream.url}${path}`, { headers });

  it('answers /healthz and /readyz once the signing keys are loaded', async () => {
    const health = await get('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { keys: true, store: true, accepting: true } });
  });

  it('routes the issuer endpoints and the authenticated revocation feed', async () => {
    const jwks = await get('/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    expect((await get('/.well-known/oauth-authorization-server')).status).toBe(200);
    const tokenGet = await get('/oauth/token');
    expect(tokenGet.status).toBe(405);
    expect(tokenGet.headers.get('allow')).toBe('POST');
    expect((await get('/internal/revocations?cursor=0')).status).toBe(401);
    const feed = await get('/internal/revocations?cursor=0', { authorization: `Bearer ${t.upstream.feedToken.value}` });
    expect(feed.status).toBe(200);
  });

  it('serves a validation route to a bearer token with its scope, naming the token project', async () => {
    const res = await get('/api/test/echo?q=hello', { authorization: `Bearer ${emailToken}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ projectId, q: 'hello', success: true });
  });

  it('re-checks bearer tokens itself: no credentials, a missing scope or a forged token are refused in the route body shape', async () => {
    const none = await get('/api/test/echo?q=x');
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ completions: [], success: false });
    const wrongScope = await get('/api/test/echo?q=x', { authorization: `Bearer ${phoneToken}` });
    expect(wrongScope.status).toBe(401);
    expect(await wrongScope.json()).toMatchObject({ completions: [], error_code: '1026', success: false });
    const forged = `${emailToken.slice(0, -4)}AAAA`;
    const bad = await get('/api/test/echo?q=x', { authorization: `Bearer ${forged}` });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ completions: [], error_code: '1024', success: false });
  });

  it('serves a validation route at its trailing-slash path too, as the API reference’s curl examples write it', async () => {
    const res = await get('/api/test/echo/?q=hello', { authorization: `Bearer ${emailToken}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ projectId, q: 'hello', success: true });
    const post = await fetch(`${t.upstream.url}/api/test/echo/`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({
      completions: [],
      message: 'Method not allowed',
      error_code: '1042',
      success: false,
    });
  });

  it('serves a validation route to an API key and secret', async () => {
    const apiKey = (await t.admin('POST', `/projects/${projectId}/apikeys`)).body as Json;
    const res = await get(`/api/test/echo?q=k&key=${apiKey['key']}&secret=${apiKey['secret']}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ projectId });
  });

  it('answers unknown paths with a JSON 404 and wrong methods with a JSON 405 and Allow', async () => {
    const missing = await get('/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'No such endpoint', error_code: '1041', success: false });
    const postHealth = await fetch(`${t.upstream.url}/healthz`, { method: 'POST' });
    expect(postHealth.status).toBe(405);
    expect(postHealth.headers.get('allow')).toBe('GET, HEAD');
    const postRoute = await fetch(`${t.upstream.url}/api/test/echo`, { method: 'POST', body: 'x' });
    expect(postRoute.status).toBe(405);
    expect(await postRoute.json()).toEqual({
      completions: [],
      message: 'Method not allowed',
      error_code: '1042',
      success: false,
    });
  });

  it('answers an address reload with 404 when it hosts no address routes', async () => {
    expect(await t.admin('POST', '/address/reload')).toMatchObject({
      status: 404,
      body: { error_code: '1041', success: false },
    });
  });

  it('propagates a well-formed x-request-id and replaces a malformed one', async () => {
    expect((await get('/healthz', { 'x-request-id': 'abc-123' })).headers.get('x-request-id')).toBe('abc-123');
    const replaced = (await get('/healthz', { 'x-request-id': 'bad id\twith spaces' })).headers.get('x-request-id');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses oversized request headers with 431', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${t.upstream.url}/healthz`, { headers: { 'x-big': 'a'.repeat(20_000) } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
  });

  it('logs one access line per request with the path but never the query string or a token', async () => {
    await get('/api/test/echo?q=private&secret=s3cr3t-value', { authorization: `Bearer ${emailToken}` });
    const logs = t.logs();
    expect(logs).toMatch(/"path":"\/api\/test\/echo"/);
    expect(logs).not.toContain('s3cr3t-value');
    expect(logs).not.toContain(emailToken);
    expect(logs).not.toContain(emailToken.split('.')[2]);
  });
});

describe('upstream restart', () => {
  it('keeps projects, clients, keys and the admin token across a restart of the same DATA_DIR, closing promptly', async () => {
    const first = await startTestUpstream();
    try {
      const project = (await first.admin('POST', '/projects', { name: 'kept', plan: 'enterprise' })).body as Json;
      const client = (await first.admin('POST', `/projects/${project['id']}/clients`, { name: 'c', scopes: ['phone'] }))
        .body as Json;
      const token = await clientCredentialsToken(
        first.upstream.url,
        String(client['client_id']),
        String(client['client_secret']),
      );
      const keys = (await first.admin('GET', '/keys')).body;
      // A gateway's pending 30 s long-poll must not hold the shutdown: it is answered at once.
      const poll = fetch(`${first.upstream.url}/internal/revocations?cursor=999999&wait=30`, {
        headers: { authorization: `Bearer ${first.upstream.feedToken.value}` },
      });
      await new Promise((resolve) => setTimeout(resolve, 200)); // let the poll reach the server
      const stopping = performance.now();
      await first.stop();
      expect(performance.now() - stopping).toBeLessThan(2_000);
      expect((await poll).status).toBe(200);

      const second = await startTestUpstream({ dataDir: first.dataDir });
      try {
        expect(second.adminToken).toBe(first.adminToken);
        expect((await second.admin('GET', `/projects/${project['id']}`)).body).toMatchObject(project);
        expect((await second.admin('GET', `/projects/${project['id']}/clients`)).body).toEqual([
          {
            client_id: client['client_id'],
            name: 'c',
            scopes: ['phone'],
            enabled: true,
            auth: 'client_secret',
            require_dpop: false,
            introspect: false,
          },
        ]);
        expect((await second.admin('GET', '/keys')).body).toEqual(keys);
        // The default routes are mounted: the phone route accepts the token minted before the restart.
        const phone = await fetch(
          `${second.upstream.url}/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU`,
          {
            headers: { authorization: `Bearer ${token}` },
          },
        );
        expect(await phone.json()).toMatchObject({ success: true });
        expect(phone.status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      await first.destroy();
    }
    // The store opens twice (PGlite: 5 s idle, over 20 s on a loaded two-core machine).
  }, 120_000);
});

describe('signing algorithm change', () => {
  it('accepts the tokens its issuer signs after SIGNING_ALG changes, with the old keys and after both rotations', async () => {
    const first = await startTestUpstream({ routes: [echoRoute] });
    try {
      const project = (await first.admin('POST', '/projects', { name: 'p', plan: 'business' })).body as Json;
      const client = (await first.admin('POST', `/projects/${project['id']}/clients`, { name: 'c', scopes: ['email'] }))
        .body as Json;
      const id = String(client['client_id']);
      const secret = String(client['client_secret']);
      await first.stop();

      const second = await startTestUpstream({
        dataDir: first.dataDir,
        env: { SIGNING_ALG: 'ES256' },
        routes: [echoRoute],
      });
      try {
        const echo = async () => {
          const token = await clientCredentialsToken(second.upstream.url, id, secret);
          const res = await fetch(`${second.upstream.url}/api/test/echo`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const alg = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as Json;
          return { alg: alg['alg'], status: res.status, body: (await res.json()) as Json };
        };
        // The existing keys keep their algorithm: the active one still signs RS256, the next one is RS256 too.
        const before = await echo();
        expect(before).toMatchObject({ alg: 'RS256', status: 200, body: { projectId: project['id'] } });
        expect((await second.admin('POST', '/keys/rotate')).status).toBe(200);
        expect(await echo()).toMatchObject({ alg: 'RS256', status: 200 });
        // The ES256 key was published just now: a rotation is refused until gateways can hold it. An
        // operator waits for the time the 409 names; the emergency rotation stands in for that wait.
        expect((await second.admin('POST', '/keys/rotate')).status).toBe(409);
        expect((await second.admin('POST', '/keys/rotate', { now: true })).status).toBe(200);
        expect(await echo()).toMatchObject({ alg: 'ES256', status: 200 });
      } finally {
        await second.stop();
      }
    } finally {
      await first.destroy();
    }
    // The store opens twice (PGlite: 5 s idle, over 20 s on a loaded two-core machine).
  }, 120_000);
});
