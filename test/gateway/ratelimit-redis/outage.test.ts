import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateRedis, startPrivateRedis } from '#test/private-redis.ts';
import type { Harness } from '../support/harness.ts';
import { bearer, burst, gatewayOn, uniquePrefix, until } from './support.ts';

let redis: PrivateRedis;
beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(() => redis.dispose());

interface Readiness {
  ready: boolean;
  checks: { rateLimits?: { ok: boolean; store: string; connected: boolean; failOpen: boolean } };
}
const readiness = async (h: Harness) => {
  const res = await h.fetch('/readyz');
  return { status: res.status, body: (await res.json()) as Readiness };
};
const metric = async (h: Harness, name: string) => {
  const text = await (await fetch(h.gateway.metricsUrl)).text();
  return text.split('\n').filter((l) => l.startsWith(name));
};
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('Redis stopped and restarted, fail-open (the default)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await gatewayOn(redis.url, uniquePrefix());
  });
  afterAll(() => h.close());

  it('keeps serving by its own counts, says so, and goes back to Redis once it is back', async () => {
    const t = await bearer(h, 'open-client');
    expect(await burst(h, t, 8)).toEqual(Array(8).fill(200));
    expect((await readiness(h)).body.checks.rateLimits).toEqual({
      ok: true,
      store: 'redis',
      connected: true,
      failOpen: true,
    });

    await redis.stop();
    const during = await timed(() => burst(h, t, 8));
    expect(during.value).toEqual(Array(8).fill(200));
    expect(during.ms).toBeLessThan(2_000);
    await until(async () => (await readiness(h)).body.checks.rateLimits?.connected === false);
    const ready = await readiness(h);
    expect(ready.status).toBe(200);
    expect(ready.body.checks.rateLimits).toMatchObject({ ok: true, connected: false, failOpen: true });
    expect(h.logs.text()).toContain('rate limits: Redis unreachable; deciding without it');
    expect(await metric(h, 'tokengate_gateway_ratelimit_redis_up')).toContain('tokengate_gateway_ratelimit_redis_up 0');
    expect((await metric(h, 'tokengate_gateway_ratelimit_without_redis_total')).join('\n')).toMatch(
      /result="admitted"} [1-9]/,
    );
    // Still limited, by this gateway alone: 40 an hour.
    expect((await burst(h, t, 50)).filter((s) => s === 429).length).toBeGreaterThan(0);

    await redis.start();
    await until(async () => (await readiness(h)).body.checks.rateLimits?.connected === true, 10_000);
    const fresh = await bearer(h, 'after-restart');
    expect(await burst(h, fresh, 4)).toEqual(Array(4).fill(200));
    expect(h.logs.text()).toContain('rate limits: Redis connected');
    expect((await metric(h, 'tokengate_gateway_ratelimit_leases_total')).join('\n')).toMatch(/result="granted"} [1-9]/);
  });
});

describe('Redis stopped and restarted, fail-closed', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await gatewayOn(redis.url, uniquePrefix(), false);
    // Fail-closed, the gateway is ready once Redis is connected too.
    await until(async () => (await readiness(h)).status === 200);
  });
  afterAll(() => h.close());

  it('answers limited routes 503 1056 at once, fails readiness, serves other routes, and recovers', async () => {
    const t = await bearer(h, 'closed-client');
    expect(await burst(h, t, 4)).toEqual(Array(4).fill(200));
    await redis.stop();
    await until(async () => (await burst(h, t, 1))[0] === 503);
    const res = await h.fetch('/api/x', { headers: { authorization: `Bearer ${t}` } });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({
      message: 'Rate limiting is unavailable; try again shortly',
      error_code: '1056',
      success: false,
    });
    expect(await burst(h, t, 4, 4, '/open/x')).toEqual(Array(4).fill(200));
    const ready = await readiness(h);
    expect(ready.status).toBe(503);
    expect(ready.body.checks.rateLimits).toMatchObject({ ok: false, connected: false, failOpen: false });

    await redis.start();
    await until(async () => (await burst(h, t, 1))[0] === 200, 10_000);
    expect((await readiness(h)).status).toBe(200);
  });
});

describe('a Redis that stops answering', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await gatewayOn(redis.url, uniquePrefix(), false, { REDIS_TIMEOUT_MS: '200' });
    await until(async () => (await readiness(h)).status === 200);
  });
  afterAll(async () => {
    redis.thaw();
    await h.close();
  });

  it('never leaves a call hanging: each is answered within about the command timeout', async () => {
    const t = await bearer(h, 'frozen-client');
    expect(await burst(h, t, 4)).toEqual(Array(4).fill(200));
    redis.freeze();
    // Enough calls to use up the lease and the credit, so some wait on a lease Redis never answers.
    const during = await timed(() => burst(h, t, 12, 12));
    expect(during.ms).toBeLessThan(3_000);
    expect(during.value.every((s) => s === 200 || s === 503)).toBe(true);
    expect(during.value).toContain(503);
    redis.thaw();
    await until(async () => (await burst(h, t, 1))[0] === 200, 10_000);
  });
});
