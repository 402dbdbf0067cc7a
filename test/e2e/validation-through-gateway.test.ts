import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

/**
 * Every validation endpoint through the real gateway (default route map) in front of the real
 * upstream, with both authentication methods: a bearer token checked at the edge and again
 * upstream, and key/secret passed through to the upstream, which checks it.
 */
const PUBLIC_URL = 'http://tokengate.test';
const silent = createLogger({ level: 'silent' });

interface Endpoint {
  name: string;
  path: string;
  scope: string;
  ok: string;
  missing: string;
  /** What the upstream's own error bodies add on this route (the gateway's add `completions: []` on every route). */
  extra: Record<string, unknown>;
}

const endpoints: Endpoint[] = [
  {
    name: 'autocomplete',
    path: '/api/au/address/autocomplete',
    scope: 'address',
    ok: 'q=1+George+St+Sydney',
    missing: '',
    extra: { completions: [] },
  },
  {
    name: 'verification',
    path: '/api/au/address/v2/verification',
    scope: 'address',
    ok: 'q=2+George+Street+SYDNEY+NSW+2000',
    missing: '',
    extra: { completions: [] },
  },
  {
    name: 'metadata',
    path: '/api/au/address/metadata',
    scope: 'address',
    ok: '',
    missing: '',
    extra: { completions: [] },
  },
  {
    name: 'phone',
    path: '/api/phone/v1/verification',
    scope: 'phone',
    ok: 'phone_number=0412345678&default_country_code=AU',
    missing: 'default_country_code=AU',
    extra: { completions: [] },
  },
  {
    name: 'email',
    path: '/api/email/v1/verification',
    scope: 'email',
    ok: 'email=someone@example.com&features=format',
    missing: 'features=format',
    extra: { completions: [] },
  },
];

describe('validation endpoints through the gateway', () => {
  let up: TestUpstream;
  let gateway: RunningGateway;
  let token: string;
  let apiKey: { key: string; secret: string };
  let projectId: string;

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${gateway.url}${path}`, { headers });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const bearer = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    up = await startTestUpstream({ env: { PUBLIC_URL } });
    const env = {
      GATEWAY_PORT: '0',
      METRICS_PORT: '0',
      UPSTREAM_URL: up.upstream.url,
      PUBLIC_URL,
      REVOCATION_FEED_TOKEN: up.upstream.feedToken.value,
    };
    gateway = await startGateway(
      loadGatewayConfig(join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml'), env),
      { log: silent },
    );
    await gateway.ready();
    projectId = ((await up.admin('POST', '/projects', { name: 'acme', plan: 'business' })).body as { id: string }).id;
    const client = (
      await up.admin('POST', `/projects/${projectId}/clients`, { name: 'svc', scopes: ['address', 'phone', 'email'] })
    ).body as {
      client_id: string;
      client_secret: string;
    };
    token = await clientCredentialsToken(gateway.url, client.client_id, client.client_secret);
    apiKey = (await up.admin('POST', `/projects/${projectId}/apikeys`)).body as { key: string; secret: string };
    const first = await get(`/api/au/address/autocomplete?q=1+George+St+Sydney`, bearer());
    const id = (first.body.completions as Array<{ id: string }>)[0]?.id ?? '';
    endpoints.find((e) => e.name === 'metadata')!.ok = `id=${encodeURIComponent(id)}`;
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    await up?.destroy();
  });

  describe.each(endpoints)('$name', (endpoint) => {
    it('answers a bearer token with the scope', async () => {
      expect(await get(`${endpoint.path}?${endpoint.ok}`, bearer())).toMatchObject({
        status: 200,
        body: { success: true },
      });
    });

    it('answers key and secret, the secret as the raw Authorization value or as a parameter', async () => {
      const sep = endpoint.ok ? '&' : '';
      expect(
        await get(`${endpoint.path}?${endpoint.ok}${sep}key=${apiKey.key}`, { authorization: apiKey.secret }),
      ).toMatchObject({ status: 200, body: { success: true } });
      expect(await get(`${endpoint.path}?${endpoint.ok}${sep}key=${apiKey.key}&secret=${apiKey.secret}`)).toMatchObject(
        { status: 200, body: { success: true } },
      );
    });

    it("answers another method 405 in the route's error body shape, at the gateway as at the upstream", async () => {
      const body = { ...endpoint.extra, message: 'Method not allowed', error_code: '1042', success: false };
      for (const base of [gateway.url, up.upstream.url]) {
        const res = await fetch(`${base}${endpoint.path}`, { method: 'DELETE', headers: bearer() });
        expect({ base, status: res.status, body: await res.json() }).toEqual({ base, status: 405, body });
      }
    });

    it('answers the path with a trailing slash as the plain path, as the API reference’s curl examples write it', async () => {
      const plain = await get(`${endpoint.path}?${endpoint.ok}`, bearer());
      expect(plain).toMatchObject({ status: 200, body: { success: true } });
      expect(await get(`${endpoint.path}/?${endpoint.ok}`, bearer())).toEqual(plain);
      const sep = endpoint.ok ? '&' : '';
      expect(
        await get(`${endpoint.path}/?${endpoint.ok}${sep}key=${apiKey.key}`, { authorization: apiKey.secret }),
      ).toEqual(plain);
      expect(await get(`${endpoint.path}/?${endpoint.missing}`, bearer())).toEqual(
        await get(`${endpoint.path}?${endpoint.missing}`, bearer()),
      );
    });

    it('names a missing parameter with 1000 in the route’s body shape, for both methods', async () => {
      const expected = { ...endpoint.extra, error_code: '1000', success: false };
      expect(await get(`${endpoint.path}?${endpoint.missing}`, bearer())).toMatchObject({
        status: 400,
        body: expected,
      });
      const sep = endpoint.missing ? '&' : '';
      expect(
        await get(`${endpoint.path}?${endpoint.missing}${sep}key=${apiKey.key}`, { authorization: apiKey.secret }),
      ).toMatchObject({ status: 400, body: expected });
    });

    it('refuses key/secret errors with 1004, 1001 and 1006, and no credential at all with 1040', async () => {
      const q = `${endpoint.path}?${endpoint.ok}${endpoint.ok ? '&' : ''}`;
      expect(await get(`${q}key=${apiKey.key}`)).toMatchObject({
        status: 401,
        body: { ...endpoint.extra, error_code: '1004' },
      });
      expect(await get(`${q}key=key_unknown`, { authorization: apiKey.secret })).toMatchObject({
        status: 401,
        body: { error_code: '1001' },
      });
      expect(await get(`${q}key=${apiKey.key}`, { authorization: 'wrong-secret' })).toMatchObject({
        status: 401,
        body: { error_code: '1006' },
      });
      expect(await get(`${endpoint.path}?${endpoint.ok}`)).toMatchObject({
        status: 401,
        body: { completions: [], error_code: '1040' },
      });
    });

    it('refuses a malformed bearer token at the gateway in the documented error body, completions first', async () => {
      const refused = await get(`${endpoint.path}?${endpoint.ok}`, { authorization: 'Bearer not-a-token' });
      expect(refused).toEqual({
        status: 401,
        body: { completions: [], message: 'Invalid bearer token', error_code: '1024', success: false },
      });
      expect(Object.keys(refused.body)).toEqual(['completions', 'message', 'error_code', 'success']);
    });

    it('refuses a token without the route’s scope with 1026', async () => {
      const other = endpoint.scope === 'phone' ? 'email' : 'phone';
      const client = (
        await up.admin('POST', `/projects/${projectId}/clients`, {
          name: `only-${other} for ${endpoint.path}`,
          scopes: [other],
        })
      ).body as {
        client_id: string;
        client_secret: string;
      };
      const narrow = await clientCredentialsToken(gateway.url, client.client_id, client.client_secret);
      expect(await get(`${endpoint.path}?${endpoint.ok}`, { authorization: `Bearer ${narrow}` })).toMatchObject({
        status: 401,
        body: { completions: [], error_code: '1026' },
      });
    });
  });

  it('serves the token endpoint and the key set at their trailing-slash paths too, like every other route', async () => {
    const client = (await up.admin('POST', `/projects/${projectId}/clients`, { name: 'slash', scopes: ['phone'] }))
      .body as { client_id: string; client_secret: string };
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    const res = await fetch(`${gateway.url}/oauth/token/`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    const slashed = ((await res.json()) as { access_token: string }).access_token;
    expect(
      await get(`/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU`, {
        authorization: `Bearer ${slashed}`,
      }),
    ).toMatchObject({ status: 200 });
    const keys = await fetch(`${gateway.url}/.well-known/jwks.json/`);
    expect(keys.status).toBe(200);
    expect(await keys.json()).toEqual(await (await fetch(`${gateway.url}/.well-known/jwks.json`)).json());
  });

  it("answers another method on the OAuth endpoints with the issuer's 405, in the OAuth error shape", async () => {
    for (const [method, path] of [
      ['GET', '/oauth/token'],
      ['PUT', '/oauth/token'],
      ['DELETE', '/oauth/revoke'],
    ] as const) {
      const res = await fetch(`${gateway.url}${path}`, { method });
      expect({
        method,
        path,
        status: res.status,
        allow: res.headers.get('allow'),
        cache: res.headers.get('cache-control'),
        body: await res.json(),
      }).toMatchObject({
        method,
        path,
        status: 405,
        allow: 'POST',
        cache: 'no-store',
        body: { error: 'invalid_request' },
      });
    }
  });

  it('answers 1011 through the gateway for an unknown address id', async () => {
    expect(await get('/api/au/address/metadata?id=00000000-0000-4000-8000-000000000000', bearer())).toMatchObject({
      status: 404,
      body: { error_code: '1011' },
    });
  });

  it('answers 1025 for a token, and 1001 for a key, of a deleted project', async () => {
    const doomed = (
      (await up.admin('POST', '/projects', { name: 'doomed', plan: 'enterprise' })).body as { id: string }
    ).id;
    const client = (await up.admin('POST', `/projects/${doomed}/clients`, { name: 'svc', scopes: ['phone'] })).body as {
      client_id: string;
      client_secret: string;
    };
    const orphanToken = await clientCredentialsToken(gateway.url, client.client_id, client.client_secret);
    const key = (await up.admin('POST', `/projects/${doomed}/apikeys`)).body as { key: string; secret: string };
    expect((await up.admin('DELETE', `/projects/${doomed}`)).status).toBe(200);
    const phone = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
    let res = await get(phone, { authorization: `Bearer ${orphanToken}` });
    for (let i = 0; i < 30 && res.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 100)); // the upstream's project lookups are cached for 1 s
      res = await get(phone, { authorization: `Bearer ${orphanToken}` });
    }
    expect(res).toMatchObject({
      status: 400,
      body: { error_code: '1025', message: 'Project not found for bearer token' },
    });
    expect(await get(`${phone}&key=${key.key}`, { authorization: key.secret })).toMatchObject({
      status: 401,
      body: { error_code: '1001' },
    });
  });
});
