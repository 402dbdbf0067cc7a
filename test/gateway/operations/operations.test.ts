import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(import.meta.dirname);
});
afterAll(() => h.close());

describe('health endpoints', () => {
  it('answers /healthz with 200 while the process runs', async () => {
    const res = await h.fetch('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers HEAD probes like GET, without a body, and other methods with 405 (it answered HEAD with 404)', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const head = await h.fetch(path, { method: 'HEAD' });
      expect({ path, status: head.status, type: head.headers.get('content-type'), body: await head.text() }).toEqual({
        path,
        status: 200,
        type: expect.stringMatching(/^application\/json/),
        body: '',
      });
      const post = await h.fetch(path, { method: 'POST' });
      expect({ path, status: post.status, allow: post.headers.get('allow'), body: await post.json() }).toEqual({
        path,
        status: 405,
        allow: 'GET, HEAD',
        body: { message: 'Method not allowed', error_code: '1042', success: false },
      });
    }
  });

  it('answers /readyz with 200 and every check once keys are loaded and revocations synced', async () => {
    const res = await h.fetch('/readyz');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({
      ready: true,
      checks: { keys: { ok: true, loaded: true }, revocations: { ok: true, synced: true } },
    });
  });
});

describe('metrics on their own port', () => {
  it('count requests by route, status and error code and time verification', async () => {
    const token = bearer(await h.kit.tokenWithScopes(['phone']));
    for (let i = 0; i < 3; i++)
      await (await h.fetch('/api/phone/v1/verification', { headers: { authorization: token } })).text();
    await (await h.fetch('/api/phone/v1/verification', { headers: { authorization: 'Bearer x.y.z' } })).text();
    // A token whose signature fails is remembered: its second try costs no signature check.
    const forged = bearer(await h.kit.forgedToken());
    for (let i = 0; i < 2; i++)
      await (await h.fetch('/api/phone/v1/verification', { headers: { authorization: forged } })).text();
    await (await h.fetch('/nope')).text();
    await (await h.fetch('/public', { method: 'DELETE' })).text();
    const text = await (await fetch(h.gateway.metricsUrl)).text();
    expect(text).toMatch(
      /tokengate_gateway_requests_total\{route="\/api\/phone\/v1\/verification",status="200",error_code=""\} 3/,
    );
    expect(text).toMatch(
      /tokengate_gateway_requests_total\{route="\/api\/phone\/v1\/verification",status="401",error_code="1024"\} 3/,
    );
    expect(text).toMatch(/tokengate_gateway_requests_total\{route="\(unmatched\)",status="404",error_code="1041"\} 1/);
    // A known path with another method is counted under its route, not among the unmatched.
    expect(text).toMatch(/tokengate_gateway_requests_total\{route="\/public",status="405",error_code="1042"\} 1/);
    expect(text).toMatch(/tokengate_gateway_verification_seconds_count 6/);
    const buckets = [...text.matchAll(/tokengate_gateway_verification_seconds_bucket\{le="([^"]+)"\}/g)].map(
      (m) => m[1],
    );
    expect(buckets).toEqual([
      '0.00001',
      '0.00003',
      '0.0001',
      '0.0003',
      '0.001',
      '0.003',
      '0.01',
      '0.03',
      '0.1',
      '1',
      '+Inf',
    ]);
    // The cache admits a token on its second sighting: miss, miss (admitted), hit; the forged token: miss, negative hit.
    expect(text).toMatch(/tokengate_gateway_token_cache_total\{result="hit"\} 1/);
    expect(text).toMatch(/tokengate_gateway_token_cache_total\{result="negative_hit"\} 1/);
    expect(text).toMatch(/tokengate_gateway_token_cache_total\{result="miss"\} 3/);
    expect(text).toMatch(/tokengate_gateway_keyset_fetch_total\{outcome="ok"\} 1/);
    expect(text).toMatch(/tokengate_gateway_keyset_age_seconds \d+/);
    expect(text).toMatch(/tokengate_gateway_revocation_lag_seconds \d+/);
    expect(text).toMatch(/tokengate_gateway_revocation_stale 0/);
  });

  it('are not served on the public listener', async () => {
    expect((await h.fetch('/metrics')).status).toBe(404);
  });
});

describe('the access log', () => {
  it('writes one line per request with id, route, status, decision and latency, and never a token or secret', async () => {
    const token = await h.kit.tokenWithScopes(['phone']);
    const before = Date.now();
    await (
      await h.fetch('/api/phone/v1/verification', {
        headers: { authorization: bearer(token), 'x-request-id': 'log-test-1' },
      })
    ).text();
    await (
      await h.fetch('/api/phone/v1/verification?key=K-123&secret=S-very-secret', {
        headers: { 'x-request-id': 'log-test-2' },
      })
    ).text();
    const forged = await h.kit.forgedToken();
    await (
      await h.fetch('/api/phone/v1/verification', {
        headers: { authorization: bearer(forged), 'x-request-id': 'log-test-3' },
      })
    ).text();
    await (await h.fetch('/public', { method: 'POST', headers: { 'x-request-id': 'log-test-4' } })).text();
    await (await h.fetch('/public', { headers: { 'x-request-id': 'log-test-5' } })).text();
    await (await h.fetch('/nope', { headers: { 'x-request-id': 'log-test-6' } })).text();
    await new Promise((resolve) => setImmediate(resolve));
    const lines = h.logs.entries().filter((e) => e['msg'] === 'request');
    expect(lines.find((e) => e['reqId'] === 'log-test-1')).toMatchObject({
      route: '/api/phone/v1/verification',
      status: 200,
      decision: 'allowed',
      clientId: 'client-1',
      jti: JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).jti,
    });
    expect(lines.find((e) => e['reqId'] === 'log-test-1')?.['ms']).toEqual(expect.any(Number));
    const time = lines.find((e) => e['reqId'] === 'log-test-1')?.['time'];
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
    expect(lines.find((e) => e['reqId'] === 'log-test-2')).toMatchObject({ status: 200, decision: 'key_secret' });
    expect(lines.find((e) => e['reqId'] === 'log-test-3')).toMatchObject({
      status: 401,
      decision: 'denied',
      errorCode: '1024',
    });
    expect(lines.find((e) => e['reqId'] === 'log-test-4')).toMatchObject({
      method: 'POST',
      route: '/public',
      status: 405,
      decision: 'rejected',
      errorCode: '1042',
    });
    expect(lines.find((e) => e['reqId'] === 'log-test-5')).toMatchObject({
      method: 'GET',
      route: '/public',
      status: 200,
      decision: 'public',
    });
    expect(lines.find((e) => e['reqId'] === 'log-test-6')).toMatchObject({
      route: '(unmatched)',
      status: 404,
      decision: 'rejected',
      errorCode: '1041',
    });
    const text = h.logs.text();
    for (const secret of [token, forged, token.split('.')[2] ?? '', 'S-very-secret', 'K-123', h.feed.token])
      expect(text).not.toContain(secret);
  });

  it('marks the line of a request whose client went away before the reply as aborted, and only that one', async () => {
    h.upstream.setDelay(2_000);
    try {
      const client = new AbortController();
      const pending = h
        .fetch('/public', { headers: { 'x-request-id': 'log-aborted' }, signal: client.signal })
        .catch(() => 'aborted');
      await vi.waitFor(
        () => expect(h.upstream.seen.some((r) => r.headers['x-request-id'] === 'log-aborted')).toBe(true),
        { timeout: 10_000 },
      );
      client.abort();
      expect(await pending).toBe('aborted');
      await vi.waitFor(
        () =>
          expect(h.logs.entries().find((e) => e['reqId'] === 'log-aborted')).toMatchObject({
            route: '/public',
            decision: 'public',
            aborted: true,
          }),
        { timeout: 10_000 },
      );
    } finally {
      h.upstream.setDelay(0);
    }
    await (await h.fetch('/public', { headers: { 'x-request-id': 'log-complete' } })).text();
    await vi.waitFor(
      () => expect(h.logs.entries().find((e) => e['reqId'] === 'log-complete')).toMatchObject({ status: 200 }),
      { timeout: 10_000 },
    );
    expect(h.logs.entries().find((e) => e['reqId'] === 'log-complete')?.['aborted']).toBeUndefined();
  });
});
