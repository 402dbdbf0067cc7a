import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGatewayConfig } from '../../../src/gateway/config/load.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '#test/fake-clock.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const clock = createFakeClock(Date.UTC(2026, 0, 31, 23, 59, 0));
let h: Harness;
beforeAll(async () => {
  h = await startHarness(import.meta.dirname, { clock });
});
afterAll(() => h.close());

const token = (client: string, project: string) =>
  h.kit.goodToken({ claims: { sub: client, client_id: client, project_id: project } });
const call = async (bearer: string, path = '/api/x') =>
  h.fetch(path, { headers: { authorization: `Bearer ${bearer}` } });
const statuses = async (bearer: string, n: number, path?: string) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call(bearer, path)).status);
  return out;
};

describe('rate limits per client and per project', () => {
  it('answers a client over its limit 429 1045 with Retry-After and the RateLimit fields', async () => {
    const t = await token('c-alone', 'p-alone');
    const first = await call(t);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"client";q=3;w=10, "project";q=5;w=10');
    expect(first.headers.get('ratelimit')).toBe('"client";r=2;t=4, "project";r=4;t=2');
    expect(await statuses(t, 2)).toEqual([200, 200]);
    const refused = await call(t);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      completions: [],
      message: 'Rate limit exceeded; retry after the time in Retry-After',
      error_code: '1045',
      success: false,
    });
    // 3 tokens per 10 s: the next one is back in 10/3 s.
    expect(refused.headers.get('retry-after')).toBe('4');
    expect(refused.headers.get('ratelimit')).toBe('"client";r=0;t=4');
    expect(refused.headers.get('ratelimit-policy')).toBe('"client";q=3;w=10, "project";q=5;w=10');
  });

  it('leaves another client of another project unaffected', async () => {
    const busy = await token('c-busy', 'p-busy');
    expect(await statuses(busy, 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses(await token('c-calm', 'p-calm'), 3)).toEqual([200, 200, 200]);
  });

  it("shares the project's limit between its clients, and gives back a refused call's client token", async () => {
    const a = await token('c-a', 'p-shared');
    const b = await token('c-b', 'p-shared');
    expect(await statuses(a, 3)).toEqual([200, 200, 200]);
    expect(await statuses(b, 3)).toEqual([200, 200, 429]);
    const refused = await call(b);
    expect(((await refused.json()) as { error_code: string }).error_code).toBe('1045');
    expect(refused.headers.get('ratelimit')).toMatch(/^"project";r=0;t=\d+$/);
    // Refill: 5 project tokens per 10 s; after 2 s one is back, and c-b's refused calls cost it nothing.
    clock.advance(2_000);
    expect(await statuses(b, 1)).toEqual([200]);
  });

  it('admits again once the bucket has refilled', async () => {
    const t = await token('c-refill', 'p-refill');
    expect(await statuses(t, 4)).toEqual([200, 200, 200, 429]);
    clock.advance(10_000);
    expect(await statuses(t, 3)).toEqual([200, 200, 200]);
  });

  it('counts key/secret calls by their key, and limits neither routes without a group nor groups no plan names', async () => {
    const byKey = async () => (await h.fetch('/api/x?key=k1&secret=s')).status;
    const keyed = [await byKey(), await byKey(), await byKey(), await byKey()];
    expect(keyed).toEqual([200, 200, 200, 429]);
    const t = await token('c-free', 'p-free');
    expect(await statuses(t, 6, '/open/x')).toEqual([200, 200, 200, 200, 200, 200]);
    const unlisted = await call(t, '/other/x');
    expect(unlisted.status).toBe(200);
    expect(unlisted.headers.get('ratelimit')).toBeNull();
  });

  it('never forwards a refused call', async () => {
    const t = await token('c-count', 'p-count');
    // The echo upstream also sees the gateway's policy-feed polls: count the calls only.
    const calls = () => h.upstream.seen.filter((r) => r.url.startsWith('/api/')).length;
    const before = calls();
    expect(await statuses(t, 5)).toEqual([200, 200, 200, 429, 429]);
    expect(calls() - before).toBe(3);
    // Admitted calls per project, for Prometheus.
    const metrics = await (await fetch(h.gateway.metricsUrl)).text();
    expect(metrics).toContain('tokengate_gateway_project_calls_total{project_id="p-count"} 3');
  });
});

describe('a reload', () => {
  it('applies new limits at once, keeping what was counted', async () => {
    const t = await token('c-reload', 'p-reload');
    expect(await statuses(t, 2)).toEqual([200, 200]);
    const source = readFileSync(join(import.meta.dirname, 'gateway.yaml'), 'utf8').replace(
      'client: { requests: 3, windowSec: 10 }',
      'client: { requests: 4, windowSec: 10 }',
    );
    const result = await h.gateway.reload(parseGatewayConfig(source, 'gateway.yaml', h.env));
    expect(result.ok).toBe(true);
    const next = await call(t);
    expect(next.headers.get('ratelimit-policy')).toBe('"client";q=4;w=10, "project";q=5;w=10');
    // What was counted stays: two of the old three were spent, so one call passes; the larger
    // bucket fills up at the new rate, not at once.
    expect([next.status, ...(await statuses(t, 1))]).toEqual([200, 429]);
    clock.advance(5_000);
    expect(await statuses(t, 2)).toEqual([200, 200]);
  });
});

describe('monthly quota', () => {
  const monthClock = createFakeClock(Date.UTC(2026, 0, 31, 23, 59, 50));
  let q: Harness;
  beforeAll(async () => {
    q = await startHarness(import.meta.dirname, { clock: monthClock, file: join(import.meta.dirname, 'quota.yaml') });
  });
  afterAll(() => q.close());

  it('refuses past the quota with 1046 naming the next month, and admits again when the UTC month turns', async () => {
    const t = await q.kit.goodToken({ claims: { project_id: 'p-quota' }, expiresInSec: 3_600 });
    const get = () => q.fetch('/api/x', { headers: { authorization: `Bearer ${t}` } });
    for (let i = 3; i >= 0; i--) {
      const ok = await get();
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit')).toBe(`"quota";r=${i};t=10`);
    }
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      message: 'Monthly quota exhausted until 2026-02-01T00:00:00Z',
      error_code: '1046',
      success: false,
    });
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(refused.headers.get('ratelimit-policy')).toBe(`"quota";q=4;w=${31 * 86_400}`);
    monthClock.advance(10_000);
    const next = await get();
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit')).toBe('"quota";r=3;t=2419200');
  });
});
