import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenClient } from '../../src/client/index.ts';
import type { Stack } from '#test/stack.ts';
import { accessToken, type CreatedClient, call, forgedToken, jwtHeader, projectWithClient, sleep } from './support.ts';

/**
 * The spec's flow, walked against the real processes (`tokengate upstream`, `tokengate gateway`,
 * `tokengate admin`): one stack per backend, steps in order, each asserting what a user sees.
 */
export function defineStackFlow(label: string, launch: (dir: string) => Promise<Stack>) {
  describe(`the local stack (${label})`, () => {
    let stack: Stack;
    let dir: string;
    let client: CreatedClient;
    let token: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'tokengate-e2e-'));
      stack = await launch(dir);
    }, 180_000);

    afterAll(async () => {
      await stack?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('creates a project and an OAuth client with the CLI', async () => {
      ({ client } = await projectWithClient(stack, 'address,phone,email'));
      expect(client).toMatchObject({ name: 'svc', scopes: ['address', 'phone', 'email'], enabled: true });
      expect(client.client_secret.length).toBeGreaterThanOrEqual(43);
    });

    it('issues a token for form credentials and for HTTP Basic', async () => {
      token = await accessToken(stack, client);
      expect(jwtHeader(token)).toMatchObject({ alg: 'RS256' });
      const basic = Buffer.from(
        `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`,
      ).toString('base64');
      const res = await fetch(`${stack.gatewayUrl}/oauth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&scope=phone',
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'phone' });
    });

    it('answers every endpoint through the gateway for a token with the scope (via the client library)', async () => {
      const api = createTokenClient({
        tokenUrl: `${stack.gatewayUrl}/oauth/token`,
        clientId: client.client_id,
        clientSecret: client.client_secret,
      });
      const get = async (path: string) => {
        const res = await api.fetch(`${stack.gatewayUrl}${path}`);
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const auto = await get('/api/au/address/autocomplete?q=1+George+St+Sydney&format=json');
      expect(auto.status).toBe(200);
      const completions = auto.body.completions as Array<{ id: string; full_address: string }>;
      expect(completions.length).toBeGreaterThan(0);
      const meta = await get(`/api/au/address/metadata?id=${encodeURIComponent(completions[0]!.id)}`);
      expect(meta).toMatchObject({ status: 200, body: { success: true } });
      const verify = await get(`/api/au/address/v2/verification?q=${encodeURIComponent(completions[0]!.full_address)}`);
      expect(verify).toMatchObject({ status: 200, body: { success: true, matched: true } });
      expect(await get('/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU')).toMatchObject({
        status: 200,
        body: { success: true, is_verified: true, line_type: 'mobile' },
      });
      expect(await get('/api/email/v1/verification?email=someone@example.com&features=format')).toMatchObject({
        status: 200,
        body: { success: true },
      });
    });

    it('refuses a request without credentials, and malformed and forged tokens, with 1024', async () => {
      expect(await call(stack, '/api/phone/v1/verification?phone_number=1&default_country_code=AU')).toMatchObject({
        status: 401,
        body: { success: false },
      });
      const malformed = await call(stack, '/api/au/address/autocomplete?q=x', 'not-a-jwt');
      expect(malformed).toMatchObject({
        status: 401,
        body: { error_code: '1024', message: 'Invalid bearer token', completions: [], success: false },
      });
      const forged = await call(
        stack,
        '/api/phone/v1/verification?phone_number=1&default_country_code=AU',
        await forgedToken(stack, token),
      );
      expect(forged).toMatchObject({ status: 401, body: { error_code: '1024', message: 'Invalid bearer token' } });
    });

    it('refuses a token without the route’s scope with 1026', async () => {
      const phoneOnly = await accessToken(stack, client, { scope: 'phone' });
      const res = await call(stack, '/api/email/v1/verification?email=a@example.com', phoneOnly);
      expect(res).toMatchObject({
        status: 401,
        body: { error_code: '1026', message: 'Token does not have the required scope for this endpoint' },
      });
      expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
    });

    it('refuses an expired token with 1030 naming the expiry in UTC', { timeout: 30_000 }, async () => {
      const shortLived = await accessToken(stack, client, { expires_in: '1' });
      const path = '/api/phone/v1/verification?phone_number=1&default_country_code=AU';
      // Refused at the latest tolerance + 2 s after it was issued (exp is in whole seconds): asked
      // until it is, rather than slept for the longest case.
      const deadline = performance.now() + (stack.clockToleranceSec + 2) * 1000 + 100;
      let res = await call(stack, path, shortLived);
      while (res.status === 200 && performance.now() < deadline) {
        await sleep(100);
        res = await call(stack, path, shortLived);
      }
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error_code: '1030', success: false });
      expect(res.body.message).toMatch(/^Token expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it('answers 1025 for a valid token whose project was deleted', async () => {
      const other = await projectWithClient(stack, 'phone');
      const orphan = await accessToken(stack, other.client);
      expect(await stack.adminJson(['project', 'delete', other.project.id])).toEqual({
        id: other.project.id,
        deleted: true,
      });
      const res = await call(
        stack,
        '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU',
        orphan,
      );
      expect(res).toMatchObject({
        status: 400,
        body: { error_code: '1025', message: 'Project not found for bearer token' },
      });
    });

    it('enforces a revocation at the gateway within one second', async () => {
      const victim = await accessToken(stack, client);
      const path = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
      expect((await call(stack, path, victim)).status).toBe(200);
      expect(await stack.adminJson(['token', 'revoke', victim])).toEqual({ revoked: true });
      const started = performance.now();
      let res = await call(stack, path, victim);
      while (res.status === 200 && performance.now() - started < 1_000) res = await call(stack, path, victim);
      expect(res).toMatchObject({ status: 401, body: { error_code: '1024', message: 'OAuth key has been revoked' } });
      expect(performance.now() - started).toBeLessThan(1_000);
    });

    it('keeps old and new tokens working across a key rotation', async () => {
      const before = await accessToken(stack, client);
      const { kid } = await stack.adminJson<{ kid: string }>(['keys', 'rotate']);
      const after = await accessToken(stack, client);
      expect(jwtHeader(after).kid).toBe(kid);
      expect(jwtHeader(before).kid).not.toBe(kid);
      const path = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
      expect((await call(stack, path, before)).status).toBe(200);
      expect((await call(stack, path, after)).status).toBe(200);
      const keys = await stack.adminJson<Array<{ kid: string; status: string }>>(['keys', 'list']);
      expect(keys.find((k) => k.kid === kid)?.status).toBe('active');
      expect(keys.find((k) => k.kid === jwtHeader(before).kid)?.status).toBe('retired');
    });

    it('keeps deciding at the edge while the upstream is down, answers 502 JSON for forwarding, and recovers', async () => {
      const path = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
      const live = await accessToken(stack, client);
      await stack.stopUpstream();
      expect(await call(stack, path, 'garbage')).toMatchObject({ status: 401, body: { error_code: '1024' } });
      expect(await call(stack, path, live)).toMatchObject({
        status: 502,
        body: { error_code: '1050', success: false },
      });
      await stack.startUpstream();
      expect((await call(stack, path, live)).status).toBe(200);
    }, 90_000);

    it('loses no data when everything restarts', async () => {
      const kept = await accessToken(stack, client);
      await stack.restartAll();
      const path = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
      expect((await call(stack, path, kept)).status).toBe(200);
      const fresh = await accessToken(stack, client);
      expect((await call(stack, path, fresh)).status).toBe(200);
      const listed = await stack.adminJson<Array<{ client_id: string }>>([
        'client',
        'list',
        '--project',
        (await projectOf(stack, client)) ?? '',
      ]);
      expect(listed.map((c) => c.client_id)).toContain(client.client_id);
    }, 120_000);
  });
}

async function projectOf(stack: Stack, client: CreatedClient): Promise<string | undefined> {
  const res = await fetch(`${stack.adminUrl}/projects`, {
    headers: { authorization: `Bearer ${await stack.adminToken()}` },
  });
  const projects = (await res.json()) as Array<{ id: string }>;
  for (const p of projects) {
    const clients = await stack.adminJson<Array<{ client_id: string }>>(['client', 'list', '--project', p.id]);
    if (clients.some((c) => c.client_id === client.client_id)) return p.id;
  }
  return undefined;
}
