import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUpstreamConfig } from '#upstream';
import { type Sample, scrape, sampleSum } from '#test/prometheus.ts';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

type Json = Record<string, unknown>;

async function tokenRequest(url: string, form: Record<string, string>): Promise<number> {
  const res = await fetch(`${url}/oauth/token`, { method: 'POST', body: new URLSearchParams(form) });
  await res.arrayBuffer();
  return res.status;
}

describe('the upstream’s Prometheus metrics', () => {
  let t: TestUpstream;
  let samples: Sample[];
  beforeAll(async () => {
    t = await startTestUpstream();
    const url = t.upstream.url;
    const project = (await t.admin('POST', '/projects', { name: 'm', plan: 'business' })).body as Json;
    const client = (await t.admin('POST', `/projects/${project['id']}/clients`, { name: 'c', scopes: ['phone'] }))
      .body as Json;
    const id = String(client['client_id']);
    const secret = String(client['client_secret']);
    const token = await clientCredentialsToken(url, id, secret);
    await clientCredentialsToken(url, id, secret);
    expect(await tokenRequest(url, { grant_type: 'client_credentials', client_id: id, client_secret: 'wrong' })).toBe(
      401,
    );
    expect(
      await tokenRequest(url, {
        grant_type: 'client_credentials',
        client_id: id,
        client_secret: secret,
        scope: 'email',
      }),
    ).toBe(400);
    expect((await t.admin('POST', '/tokens/revoke', { token })).status).toBe(200);
    expect((await t.admin('POST', `/clients/${id}/disable`)).status).toBe(200);
    await (await fetch(`${url}/.well-known/jwks.json`)).arrayBuffer();
    const feed = await fetch(`${url}/internal/revocations?cursor=0`, {
      headers: { authorization: `Bearer ${t.upstream.feedToken.value}` },
    });
    await feed.arrayBuffer();
    const fresh = await clientCredentialsToken(url, String(client['client_id']), secret).catch(() => undefined);
    expect(fresh).toBeUndefined();
    const phone = await fetch(`${url}/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU`);
    expect(phone.status).toBe(401);
    await phone.arrayBuffer();
    const key = (await t.admin('POST', `/projects/${project['id']}/apikeys`)).body as Json;
    const query = new URLSearchParams({ q: '2 george st', key: String(key['key']), secret: String(key['secret']) });
    const address = await fetch(`${url}/api/au/address/autocomplete?${query}`);
    expect(address.status).toBe(200);
    await address.arrayBuffer();
    samples = await scrape(t.upstream.metricsUrl);
  }, 90_000);
  afterAll(() => t.destroy());

  it('serves /metrics on a listener of its own, on loopback by default, not on the public port', async () => {
    expect(t.upstream.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(t.upstream.metricsUrl).port).not.toBe(new URL(t.upstream.url).port);
    expect((await fetch(`${t.upstream.url}/metrics`)).status).toBe(404);
    expect(loadUpstreamConfig({}).metrics).toEqual({ host: '127.0.0.1', port: 9465, portIsDefault: true });
    expect(loadUpstreamConfig({ UPSTREAM_METRICS_HOST: '0.0.0.0', UPSTREAM_METRICS_PORT: '9999' }).metrics).toEqual({
      host: '0.0.0.0',
      port: 9999,
      portIsDefault: false,
    });
  });

  it('counts token requests by outcome: issued and each OAuth error', () => {
    expect(sampleSum(samples, 'tokengate_upstream_token_requests_total', { outcome: 'issued' })).toBe(2);
    expect(sampleSum(samples, 'tokengate_upstream_token_requests_total', { outcome: 'invalid_scope' })).toBe(1);
    // The wrong secret, and the disabled client's request.
    expect(sampleSum(samples, 'tokengate_upstream_token_requests_total', { outcome: 'invalid_client' })).toBe(2);
    expect(sampleSum(samples, 'tokengate_upstream_token_issue_seconds_count')).toBe(2);
  });

  it('counts revocations, key-set and feed requests', () => {
    expect(sampleSum(samples, 'tokengate_upstream_revocations_total', { kind: 'token' })).toBe(1);
    expect(sampleSum(samples, 'tokengate_upstream_revocations_total', { kind: 'client' })).toBe(1);
    expect(sampleSum(samples, 'tokengate_upstream_keyset_requests_total', { status: '200' })).toBe(1);
    expect(sampleSum(samples, 'tokengate_upstream_revocation_feed_requests_total', { status: '200' })).toBe(1);
  });

  it('times store statements by operation, and validation requests by endpoint and status', () => {
    expect(sampleSum(samples, 'tokengate_upstream_store_query_seconds_count', { operation: 'SELECT' })).toBeGreaterThan(
      0,
    );
    expect(sampleSum(samples, 'tokengate_upstream_store_query_seconds_count', { operation: 'INSERT' })).toBeGreaterThan(
      0,
    );
    const endpoint = '/api/phone/v1/verification';
    expect(sampleSum(samples, 'tokengate_upstream_validation_requests_total', { endpoint, status: '401' })).toBe(1);
    expect(sampleSum(samples, 'tokengate_upstream_validation_seconds_count', { endpoint })).toBe(1);
  });

  it('times each search of the address data set', () => {
    expect(sampleSum(samples, 'tokengate_upstream_address_search_seconds_count')).toBe(1);
    expect(
      sampleSum(samples, 'tokengate_upstream_validation_requests_total', {
        endpoint: '/api/au/address/autocomplete',
        status: '200',
      }),
    ).toBe(1);
  });

  it('says which address data set it serves', () => {
    const info = samples.find((s) => s.name === 'tokengate_upstream_address_dataset_info');
    expect(info?.value).toBe(1);
    expect(info?.labels['source']).toBe('sample');
    expect(info?.labels['version']).toMatch(/^sample-/);
  });
});
