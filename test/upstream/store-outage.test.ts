import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivatePostgres, startPrivatePostgres } from '#test/private-postgres.ts';
import type { ValidationRoute } from '#validation';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

/** A validation route whose body shape has an extra field, as autocomplete's `completions: []`. */
const echoRoute: ValidationRoute = {
  path: '/api/test/echo',
  scope: 'email',
  errorExtra: { completions: [] },
  handle: () => ({ status: 200, body: { success: true } }),
};

let pg: PrivatePostgres;
let t: TestUpstream;
/** Created while the database is up, never used before it stops: every use below needs the store. */
let unused: { client_id: string; client_secret: string };
let token: string;

beforeAll(async () => {
  pg = await startPrivatePostgres();
  t = await startTestUpstream({
    env: { DATABASE_URL: pg.url, DATABASE_TIMEOUT_MS: '2000' },
    routes: [echoRoute],
  });
  const project = (await t.admin('POST', '/projects', { name: 'outage', plan: 'business' })).body as { id: string };
  const newClient = async (name: string) =>
    (await t.admin('POST', `/projects/${project.id}/clients`, { name, scopes: ['email'] })).body as {
      client_id: string;
      client_secret: string;
    };
  const used = await newClient('used');
  unused = await newClient('unused');
  // Signed now; its project is looked up only when it is used.
  token = await clientCredentialsToken(t.upstream.url, used.client_id, used.client_secret);
}, 120_000);
afterAll(async () => {
  await t?.destroy();
  await pg?.dispose();
});

const tokenRequest = (client: { client_id: string; client_secret: string }) =>
  fetch(`${t.upstream.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
    }),
  });

describe('the upstream while its PostgreSQL is stopped', () => {
  it('answers 503 with Retry-After in each interface’s own shape, and serves again once the database is back', {
    timeout: 60_000,
  }, async () => {
    await pg.stop();
    try {
      const [tokenRes, keyRes, bearerRes, adminRes] = await Promise.all([
        tokenRequest(unused),
        fetch(`${t.upstream.url}/api/test/echo?key=key_never_seen`, { headers: { authorization: 'a-secret' } }),
        fetch(`${t.upstream.url}/api/test/echo`, { headers: { authorization: `Bearer ${token}` } }),
        fetch(`${t.upstream.adminUrl}/projects`, { headers: { authorization: `Bearer ${t.adminToken}` } }),
      ]);
      const answer = async (res: Response) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as unknown,
      });
      expect(await answer(tokenRes)).toEqual({
        status: 503,
        retryAfter: '5',
        body: {
          error: 'temporarily_unavailable',
          error_description: 'the service is temporarily unavailable; try again later',
        },
      });
      expect(tokenRes.headers.get('cache-control')).toBe('no-store');
      const validation = {
        status: 503,
        retryAfter: '5',
        body: { completions: [], message: 'Service temporarily unavailable', error_code: '1055', success: false },
      };
      expect(await answer(keyRes)).toEqual(validation);
      expect(await answer(bearerRes)).toEqual(validation);
      expect(await answer(adminRes)).toEqual({
        status: 503,
        retryAfter: '5',
        body: {
          message: 'the store (database) does not answer; try again shortly',
          error_code: '1055',
          success: false,
        },
      });
      // The portal reads its session from the store: a page saying so, not "something went wrong".
      const portal = await fetch(`${t.upstream.adminUrl}/portal/projects`, {
        headers: { cookie: `tokengate_portal=${'a'.repeat(43)}` },
        redirect: 'manual',
      });
      expect({ status: portal.status, retryAfter: portal.headers.get('retry-after') }).toEqual({
        status: 503,
        retryAfter: '5',
      });
      expect(await portal.text()).toContain('The portal cannot reach its database just now.');
      // The log says why, for the operator.
      expect(t.logs()).toContain('the store does not answer');
    } finally {
      await pg.start();
    }
    expect((await tokenRequest(unused)).status).toBe(200);
    expect(
      (await fetch(`${t.upstream.url}/api/test/echo`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect((await t.admin('GET', '/projects')).status).toBe(200);
  });
});
