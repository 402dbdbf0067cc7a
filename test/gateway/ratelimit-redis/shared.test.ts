import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/harness.ts';
import { bearer, burst, gatewayOn, uniquePrefix } from './support.ts';

// The machine's Redis, each run under its own key prefix.
const REDIS = 'redis://127.0.0.1:6379';
const LIMIT = 40;
/** leaseSize 4, and a tenth of 40 is 4: the chunk, so the credit, of each gateway. */
const CHUNK = 4;

let a: Harness;
let b: Harness;
beforeAll(async () => {
  const prefix = uniquePrefix();
  [a, b] = await Promise.all([gatewayOn(REDIS, prefix), gatewayOn(REDIS, prefix)]);
});
afterAll(() => Promise.all([a.close(), b.close()]));

const admitted = (statuses: number[]) => statuses.filter((s) => s === 200).length;

describe('two gateways sharing one limit through Redis', () => {
  it('admit at most the limit plus one chunk per gateway, together', async () => {
    const [onA, onB] = await Promise.all([
      burst(a, await bearer(a, 'shared-client'), 100),
      burst(b, await bearer(b, 'shared-client'), 100),
    ]);
    const total = admitted(onA) + admitted(onB);
    // Each gateway alone would admit 40: 80 in all without the shared counter.
    expect(total).toBeLessThanOrEqual(LIMIT + 2 * CHUNK);
    // Tokens leased by one gateway and unused are the only under-admission.
    expect(total).toBeGreaterThanOrEqual(LIMIT - 2 * CHUNK);
    expect([...onA, ...onB].every((s) => s === 200 || s === 429)).toBe(true);
    // Decided through Redis all along (a timed-out command would hand over to each gateway's own counts).
    expect(a.logs.text() + b.logs.text()).not.toContain('deciding without it');
  });

  it('keep refusing a client over its limit at both, and serve another client of another project', async () => {
    const t = await bearer(a, 'heavy');
    await burst(a, t, 60);
    const heavyAtB = await bearer(b, 'heavy');
    // The other gateway has not heard yet: at most its one chunk of credit, then it knows.
    expect(admitted(await burst(b, heavyAtB, 10))).toBeLessThanOrEqual(CHUNK);
    expect(admitted(await burst(b, heavyAtB, 10))).toBe(0);
    expect(admitted(await burst(b, await bearer(b, 'light'), 10))).toBe(10);
  });

  it('answer the limited call 429 1045 with Retry-After and the RateLimit fields', async () => {
    const t = await bearer(a, 'fields');
    await burst(a, t, 60);
    const res = await a.fetch('/api/x', { headers: { authorization: `Bearer ${t}` } });
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error_code: string }).error_code).toBe('1045');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get('ratelimit-policy')).toBe('"client";q=40;w=3600');
    expect(res.headers.get('ratelimit')).toMatch(/^"client";r=0;t=\d+$/);
  });
});
