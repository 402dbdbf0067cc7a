import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiError } from '#common';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { lastReached, reached } from './proxy-contracts.ts';
import type { RunningProxy } from './real-proxies.ts';

type Start = (tokengateAddr: string, upstreamAddr: string) => Promise<RunningProxy>;

/**
 * The cases every real proxy must pass with its deploy/ example: one gateway (`fixture`, its
 * forwardAuth.proxy the proxy's shape) and one proxy process for the whole file, a real loopback
 * upstream behind the proxy. Registered by the proxy's own test file.
 */
export function realProxyCases(fixture: string, start: Start): void {
  let h: Harness;
  let proxy: RunningProxy | undefined;
  let key: DpopKey;
  beforeAll(async () => {
    h = await startHarness(import.meta.dirname, {
      env: { TRUSTED_PROXY: '127.0.0.1' },
      file: join(import.meta.dirname, fixture),
    });
    key = await dpopKey('ES256');
    proxy = await start(new URL(h.gateway.url).host, new URL(h.upstream.url).host);
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await h?.close();
  });

  const call = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${proxy?.url}${path}`, { method, headers });
  /** The proxy's log joined to a failed expectation, so a broken config says why. */
  const expectStatus = async (res: Response, status: number) => {
    if (res.status !== status) expect(`${res.status} ${await proxy?.log()}`).toBe(String(status));
  };

  it('lets a verified call reach the upstream with the identity header', async () => {
    const token = await h.kit.tokenWithScopes(['phone']);
    const res = await call('/api/phone/v1/verification?phone_number=1', {
      authorization: bearer(token),
      'x-tokengate-identity': 'client_id="forged"',
    });
    await expectStatus(res, 200);
    const seen = lastReached(h);
    expect(seen?.url).toBe('/api/phone/v1/verification?phone_number=1');
    expect(seen?.headers['x-tokengate-identity']).toBe(
      `client_id="client-1", project_id="project-1", scope="phone", jti="${jtiOf(token)}"`,
    );
  });

  it('keeps a refused call from the upstream and hands the client the body and challenge unchanged', async () => {
    const before = reached(h);
    const missing = await call('/api/au/address/autocomplete?q=1');
    await expectStatus(missing, 401);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await missing.json()).toEqual(apiError('credentials_missing', { extra: { completions: [] } }).body);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="tokengate"');
    const wrongScope = await call('/api/au/address/autocomplete?q=1', {
      authorization: bearer(await h.kit.tokenWithScopes(['phone'])),
    });
    await expectStatus(wrongScope, 401);
    expect(await wrongScope.json()).toEqual(apiError('insufficient_scope', { extra: { completions: [] } }).body);
    expect(wrongScope.headers.get('www-authenticate')).toBe(
      'Bearer realm="tokengate", error="insufficient_scope", error_description="Token does not have the required scope for this endpoint", scope="address"',
    );
    expect(reached(h)).toBe(before);
  });

  it('answers 404, 405 and 429 with the status, body and headers the gateway itself would send', async () => {
    const before = reached(h);
    const unknown = await call('/nowhere');
    await expectStatus(unknown, 404);
    expect(await unknown.json()).toEqual(apiError('route_not_found').body);
    const post = await call('/api/phone/v1/verification', {}, 'POST');
    await expectStatus(post, 405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await post.json()).toEqual(apiError('method_not_allowed').body);
    const authorization = bearer(await h.kit.tokenWithScopes(['phone']));
    await expectStatus(await call('/limited/a', { authorization }), 200);
    const limited = await call('/limited/a', { authorization });
    await expectStatus(limited, 429);
    expect(await limited.json()).toMatchObject({ error_code: '1045', success: false });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // The access line and the metrics count the status the client got.
    const line = h.logs.entries().findLast((entry) => entry['route'] === '/limited/*');
    expect(line).toMatchObject({ method: 'GET', status: 429, decision: 'denied', errorCode: '1045' });
    expect(reached(h)).toBe(before + 1);
  });

  it('lets a public route through without an identity header, even one the client sent', async () => {
    const res = await call('/public/page', { 'x-tokengate-identity': 'client_id="forged"' });
    await expectStatus(res, 200);
    expect(lastReached(h)?.url).toBe('/public/page');
    expect(lastReached(h)?.headers['x-tokengate-identity']).toBeUndefined();
  });

  it("checks a DPoP proof's htu and htm against the URL and method the proxy reports", async () => {
    const path = '/api/au/address/autocomplete';
    const token = await h.kit.tokenWithScopes(['address'], { claims: { cnf: { jkt: key.jkt } } });
    const withProof = async (htm: string, htu: string) =>
      call(`${path}?q=1`, { authorization: `DPoP ${token}`, dpop: await dpopProof(key, htm, htu, { token }) });
    await expectStatus(await withProof('GET', `${proxy?.url}${path}`), 200);
    for (const [htm, htu] of [
      ['GET', `${h.gateway.url}${path}`],
      ['POST', `${proxy?.url}${path}`],
    ] as const) {
      const refused = await withProof(htm, htu);
      await expectStatus(refused, 401);
      expect(await refused.json()).toMatchObject({ error_code: '1027' });
      expect(refused.headers.get('www-authenticate')).toMatch(/^DPoP /);
    }
  });
}

function jtiOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti: string };
  return payload.jti;
}
