import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError } from '#common';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { bearer } from '#test/tokens.ts';
import { until } from '#test/until.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { type Answer, type ClientCall, lastReached, reached, send, viaEnvoy, viaTraefik } from './proxy-contracts.ts';

/**
 * Forward-auth as Traefik (`forwardAuth`) and Envoy (`ext_authz` HTTP service) call it: each
 * proxy's documented request shape, built by proxy-contracts.ts, in front of a real loopback
 * upstream. Every test checks what reaches the upstream and what reaches the client.
 */
const PREFIX = '/ext-authz';
const HOST = 'api.example.com';
let traefik: Harness;
let envoy: Harness;
let untrusted: Harness;
let key: DpopKey;

beforeAll(async () => {
  const loopback = { env: { TRUSTED_PROXY: '127.0.0.0/8' } };
  [traefik, envoy, untrusted, key] = await Promise.all([
    startHarness(import.meta.dirname, { ...loopback, file: join(import.meta.dirname, 'traefik.yaml') }),
    startHarness(import.meta.dirname, { ...loopback, file: join(import.meta.dirname, 'envoy.yaml') }),
    startHarness(import.meta.dirname, {
      env: { TRUSTED_PROXY: '192.0.2.1' },
      file: join(import.meta.dirname, 'traefik.yaml'),
    }),
    dpopKey('ES256'),
  ]);
}, 60_000);
afterAll(() => Promise.all([traefik?.close(), envoy?.close(), untrusted?.close()]));

type Via = (h: Harness, call: ClientCall) => Promise<Answer>;
const shapes: [string, () => Harness, Via][] = [
  ['Traefik forwardAuth', () => traefik, (h, call) => viaTraefik(h.gateway.url, h.upstream.url, call)],
  ['Envoy ext_authz', () => envoy, (h, call) => viaEnvoy(h.gateway.url, PREFIX, h.upstream.url, call)],
];

const json = (answer: Answer): unknown => JSON.parse(answer.body);

describe.each(shapes)('forward-auth for %s', (_name, harness, via) => {
  const call = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    via(harness(), { method, path, host: HOST, headers });

  it('lets a verified call reach the upstream with the identity header', async () => {
    const h = harness();
    const token = await h.kit.tokenWithScopes(['phone']);
    const answer = await call('/api/phone/v1/verification?phone_number=1', { authorization: bearer(token) });
    expect(answer.status).toBe(200);
    const seen = lastReached(h);
    expect(seen?.url).toBe('/api/phone/v1/verification?phone_number=1');
    expect(seen?.headers['x-tokengate-identity']).toContain('client_id="client-1"');
    expect(seen?.headers['x-tokengate-identity']).toContain('scope="phone"');
  });

  it('keeps a refused call from the upstream and hands the client its body and challenge unchanged', async () => {
    const h = harness();
    const before = reached(h);
    const missing = await call('/api/au/address/autocomplete?q=1');
    expect(missing.status).toBe(401);
    expect(json(missing)).toEqual(apiError('credentials_missing', { extra: { completions: [] } }).body);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="tokengate"');
    const wrongScope = await call('/api/au/address/autocomplete?q=1', {
      authorization: bearer(await h.kit.tokenWithScopes(['phone'])),
    });
    expect(wrongScope.status).toBe(401);
    expect(json(wrongScope)).toEqual(apiError('insufficient_scope', { extra: { completions: [] } }).body);
    expect(wrongScope.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(reached(h)).toBe(before);
  });

  it('answers 404 and 405 for what the route map does not serve, as the gateway itself would', async () => {
    const h = harness();
    const before = reached(h);
    const unknown = await call('/nowhere');
    expect(unknown.status).toBe(404);
    expect(json(unknown)).toEqual(apiError('route_not_found').body);
    const post = await call('/api/phone/v1/verification', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers['allow']).toBe('GET');
    expect(reached(h)).toBe(before);
  });

  it("applies the route's rate limit: the second call gets 429 with Retry-After", async () => {
    const h = harness();
    const authorization = bearer(await h.kit.tokenWithScopes(['phone']));
    expect((await call('/limited/a', { authorization })).status).toBe(200);
    const before = reached(h);
    const limited = await call('/limited/a', { authorization });
    expect(limited.status).toBe(429);
    expect(json(limited)).toMatchObject({ error_code: '1045', success: false });
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(reached(h)).toBe(before);
  });

  it("lets a public route through with an empty identity header in place of the client's", async () => {
    const h = harness();
    const answer = await call('/public/page', { 'x-tokengate-identity': 'client_id="forged"' });
    expect(answer.status).toBe(200);
    expect(lastReached(h)?.headers['x-tokengate-identity']).toBe('');
  });

  it("checks a DPoP proof's htu and htm against the URL and method the proxy reports", async () => {
    const h = harness();
    const path = '/api/au/address/autocomplete';
    const token = await h.kit.tokenWithScopes(['address'], { claims: { cnf: { jkt: key.jkt } } });
    const withProof = async (htm: string, htu: string) =>
      call(`${path}?q=1`, { authorization: `DPoP ${token}`, dpop: await dpopProof(key, htm, htu, { token }) });
    expect((await withProof('GET', `https://${HOST}${path}`)).status).toBe(200);
    for (const [htm, htu] of [
      ['GET', `${h.gateway.url}${path}`],
      ['GET', `https://public.example${path}`],
      ['POST', `https://${HOST}${path}`],
    ] as const) {
      const refused = await withProof(htm, htu);
      expect(refused.status).toBe(401);
      expect(json(refused)).toMatchObject({ error_code: '1027' });
      expect(refused.headers['www-authenticate']).toMatch(/^DPoP /);
    }
  });
});

describe('revocation at the decision', () => {
  it('refuses a token revoked through the feed, as the gateway would refuse it itself', async () => {
    const token = await traefik.kit.tokenWithScopes(['phone']);
    const ask = () =>
      viaTraefik(traefik.gateway.url, traefik.upstream.url, {
        method: 'GET',
        path: '/api/phone/v1/verification',
        host: HOST,
        headers: { authorization: bearer(token) },
      });
    expect((await ask()).status).toBe(200);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti: string };
    traefik.feed.revoke({
      kind: 'jti',
      value: payload.jti,
      issuedBefore: null,
      expiresAt: Math.floor(Date.now() / 1000) + 900,
    });
    let answer = await ask();
    await until(async () => {
      answer = await ask();
      return answer.status === 401;
    }, 'the decision refuses the revoked token');
    expect(json(answer)).toEqual(apiError('token_revoked').body);
  });
});

describe('forward-auth requests the gateway does not take', () => {
  it("judges only the proxy's own headers: another shape's, sent by the client, are ignored", async () => {
    const answer = await viaTraefik(traefik.gateway.url, traefik.upstream.url, {
      method: 'GET',
      path: '/api/phone/v1/verification',
      host: HOST,
      headers: { 'x-original-uri': '/public/page', 'x-original-method': 'GET' },
    });
    expect(answer.status).toBe(401);
    expect(json(answer)).toMatchObject({ error_code: '1040' });
  });

  it('refuses a request from an address not in trustedProxies with 403 1060, whatever path it names', async () => {
    const before = reached(untrusted);
    const answer = await viaTraefik(untrusted.gateway.url, untrusted.upstream.url, {
      method: 'GET',
      path: '/public/page',
      host: HOST,
    });
    expect(answer.status).toBe(403);
    expect(json(answer)).toEqual(apiError('untrusted_proxy').body);
    expect(reached(untrusted)).toBe(before);
  });

  it('still answers its own health paths to any address', async () => {
    expect((await untrusted.fetch('/healthz')).status).toBe(200);
  });

  it("answers 404 for a described health path: the upstream's is no more reachable than in reverse-proxy mode", async () => {
    const before = reached(traefik);
    const answer = await viaTraefik(traefik.gateway.url, traefik.upstream.url, {
      method: 'GET',
      path: '/readyz',
      host: HOST,
    });
    expect(answer.status).toBe(404);
    expect(json(answer)).toEqual(apiError('route_not_found').body);
    expect(reached(traefik)).toBe(before);
  });

  it('refuses a trusted request that does not describe the original one with 400 1000', async () => {
    const answer = await send(`${traefik.gateway.url}/`, 'GET', { 'x-forwarded-method': 'GET' });
    expect(answer.status).toBe(400);
    expect(json(answer)).toMatchObject({ error_code: '1000', message: 'X-Forwarded-Uri missing or repeated' });
    const outside = await send(`${envoy.gateway.url}/elsewhere/public/page`, 'GET', {});
    expect(outside.status).toBe(400);
    expect(json(outside)).toMatchObject({ error_code: '1000', message: 'Path does not start with /ext-authz' });
  });

  it('counts and logs the decision under the route and method the proxy described', async () => {
    await viaTraefik(traefik.gateway.url, traefik.upstream.url, { method: 'GET', path: '/public/logged', host: HOST });
    const line = traefik.logs.entries().findLast((entry) => entry['route'] === '/public/*');
    expect(line).toMatchObject({ method: 'GET', status: 200, decision: 'public' });
  });
});
