import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TokenOptions } from '#test/tokens.ts';
import type { SeenRequest } from '../support/echo-upstream.ts';
import { type Harness, startHarness } from '../support/harness.ts';

/**
 * Claim rules and claim headers through a real gateway on loopback, with a real upstream and
 * tokens signed by the test issuer's key: the gateway on a temporary copy of this folder's
 * gateway.yaml, which the reload test edits last.
 */
let h: Harness;
let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tg-claims-'));
  file = join(dir, 'gateway.yaml');
  await copyFile(join(import.meta.dirname, 'gateway.yaml'), file);
  h = await startHarness(import.meta.dirname, { file });
});
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

const ACME_ADMIN = { tenant: 'acme', roles: ['reader', 'admin'] };

async function call(path: string, claims: Record<string, unknown>, headers: Record<string, string> = {}) {
  const options: TokenOptions = { claims };
  const res = await h.fetch(path, { headers: { authorization: bearer(await h.kit.goodToken(options)), ...headers } });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

/** The upstream's view of the last request it received. */
function lastSeen(): SeenRequest {
  return h.upstream.seen.at(-1) as SeenRequest;
}

describe('claim rules on a route', () => {
  it('forwards a token whose claims meet every rule, with the claims as headers', async () => {
    const { res } = await call('/api/reports/q1', ACME_ADMIN);
    expect(res.status).toBe(200);
    expect(lastSeen().url).toBe('/api/reports/q1');
    expect(lastSeen().headers['x-tenant']).toBe('acme');
    expect(lastSeen().headers['x-roles']).toBe('reader,admin');
  });

  it.each([
    ['another tenant', { tenant: 'globex', roles: ['admin'] }],
    ['no tenant', { roles: ['admin'] }],
    ['roles without admin', { tenant: 'acme', roles: ['reader'] }],
    ['roles as a single string', { tenant: 'acme', roles: 'admin' }],
    ['a tenant of another type', { tenant: ['acme'], roles: ['admin'] }],
  ])(
    'refuses %s with 403 1029 and the insufficient_scope challenge, never reaching the upstream',
    async (_, claims) => {
      const before = h.upstream.seen.length;
      const { res, body } = await call('/api/reports/q1', claims);
      expect(res.status).toBe(403);
      expect(body).toEqual({
        completions: [],
        message: "The token's claims do not allow this endpoint",
        error_code: '1029',
        success: false,
      });
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="tokengate", error="insufficient_scope", error_description="The token's claims do not allow this endpoint"`,
      );
      expect(h.upstream.seen.length).toBe(before);
    },
  );

  it('logs the claim that failed, never its value', async () => {
    await call('/api/reports/q1', { tenant: 'globex-secret-tenant', roles: ['admin'] });
    const refused = h.logs.entries().filter((e) => e['kind'] === 'insufficient_claims');
    expect(refused.at(-1)?.['detail']).toBe('claim tenant fails the rules of /api/reports/*');
    expect(JSON.stringify(h.logs.entries())).not.toContain('globex-secret-tenant');
  });

  it('still answers the scope check first: a token without the scope is 1026', async () => {
    const token = await h.kit.tokenWithScopes(['phone'], { claims: ACME_ADMIN });
    const res = await h.fetch('/api/reports/q1', { headers: { authorization: bearer(token) } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error_code: string }).error_code).toBe('1026');
  });
});

describe('claim headers', () => {
  it("drops a client's own copy of a claim header and sends the token's", async () => {
    const { res } = await call('/api/reports/q1', ACME_ADMIN, { 'x-tenant': 'globex', 'X-Roles': 'admin,root' });
    expect(res.status).toBe(200);
    expect(lastSeen().headers['x-tenant']).toBe('acme');
    expect(lastSeen().headers['x-roles']).toBe('reader,admin');
  });

  it('drops a spoofed claim header the token cannot fill, and on routes that set none', async () => {
    await call('/api/open/a', { tenant: 'acme' }, { 'x-region': 'eu', 'x-tenant': 'acme' });
    expect(lastSeen().headers['x-region']).toBeUndefined();
    expect(lastSeen().headers['x-tenant']).toBeUndefined();
    await call('/api/plain', {}, { 'x-tenant': 'acme', 'x-roles': 'admin' });
    expect(lastSeen().url).toBe('/api/plain');
    expect(lastSeen().headers['x-tenant']).toBeUndefined();
    expect(lastSeen().headers['x-roles']).toBeUndefined();
    const res = await h.fetch('/public/x', { headers: { 'x-tenant': 'acme' } });
    expect(res.status).toBe(200);
    expect(lastSeen().headers['x-tenant']).toBeUndefined();
  });

  it('encodes a claim so it can neither add a header nor a second value', async () => {
    const { res } = await call('/api/open/a', { region: 'eu, us\r\nx-admin: 1' });
    expect(res.status).toBe(200);
    expect(lastSeen().headers['x-region']).toBe('eu%2C%20us%0D%0Ax-admin:%201');
    expect(lastSeen().headers['x-admin']).toBeUndefined();
    await call('/api/open/a', { region: { name: 'Zürich' } });
    expect(decodeURIComponent(lastSeen().headers['x-region'] as string)).toBe('{"name":"Zürich"}');
  });
});

describe('a reload', () => {
  it('applies changed rules and headers to the next request', async () => {
    expect((await call('/api/reports/q1', { tenant: 'globex', roles: ['admin'] })).res.status).toBe(403);
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text
        .replace('tenant: acme\n', 'tenant: { oneOf: [acme, globex] }\n')
        .replace('{ X-Tenant: tenant, X-Roles: roles }', '{ X-Org: tenant }'),
    );
    expect((await h.gateway.reload()).ok).toBe(true);
    expect(
      (await call('/api/reports/q1', { tenant: 'globex', roles: ['admin'] }, { 'x-tenant': 'spoof' })).res.status,
    ).toBe(200);
    expect(lastSeen().headers['x-org']).toBe('globex');
    // X-Tenant is no claim header any more: the gateway passes the client's copy on, as any other header.
    expect(lastSeen().headers['x-tenant']).toBe('spoof');
    expect((await call('/api/reports/q1', { tenant: 'initech', roles: ['admin'] })).res.status).toBe(403);
  });
});
