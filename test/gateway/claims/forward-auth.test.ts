import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { viaTraefik } from '../forward-auth/proxy-contracts.ts';
import { type Harness, startHarness } from '../support/harness.ts';

/**
 * Claim rules and claim headers when the gateway decides for a proxy (forward-auth, Traefik's
 * documented request shape, with the claim headers in `authResponseHeaders`), in front of a real
 * loopback upstream.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness(import.meta.dirname, { file: join(import.meta.dirname, 'forward-auth.yaml') });
});
afterAll(() => h?.close());

const COPIED = ['x-tenant', 'x-roles'];

async function call(path: string, claims: Record<string, unknown>, headers: Record<string, string> = {}) {
  const authorization = bearer(await h.kit.goodToken({ claims }));
  return viaTraefik(h.gateway.url, h.upstream.url, {
    method: 'GET',
    path,
    host: 'api.example.com',
    headers: { authorization, ...headers },
    copied: COPIED,
  });
}

describe('claims in forward-auth decisions', () => {
  it("answers 200 with the claim headers, which replace the client's copies at the upstream", async () => {
    const answer = await call('/api/reports/1', { tenant: 'acme', roles: ['admin', 'ops'] }, { 'x-tenant': 'spoof' });
    expect(answer.status).toBe(200);
    const seen = h.upstream.seen.at(-1);
    expect(seen?.url).toBe('/api/reports/1');
    expect(seen?.headers['x-tenant']).toBe('acme');
    expect(seen?.headers['x-roles']).toBe('admin,ops');
  });

  it('answers every claim header, empty where the route or token gives none, so no spoofed copy survives', async () => {
    await call('/api/reports/1', { tenant: 'acme' }, { 'x-roles': 'root' });
    expect(h.upstream.seen.at(-1)?.headers['x-roles']).toBe('');
    await call('/api/plain', {}, { 'x-tenant': 'acme' });
    expect(h.upstream.seen.at(-1)?.url).toBe('/api/plain');
    expect(h.upstream.seen.at(-1)?.headers['x-tenant']).toBe('');
  });

  it('refuses claims that fail the rules with 403 1029, which the proxy hands the client', async () => {
    const before = h.upstream.seen.length;
    const answer = await call('/api/reports/1', { tenant: 'globex' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error_code: '1029', success: false });
    expect(answer.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(h.upstream.seen.length).toBe(before);
  });
});
