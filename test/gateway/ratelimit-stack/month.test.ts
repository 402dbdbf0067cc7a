import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { createFakeClock } from '#test/fake-clock.ts';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from '../../upstream/upstream-fixture.ts';
import { createLogSink } from '../support/log-sink.ts';

const ISSUER = 'http://tokengate.test';
const REDIS_URL = 'redis://127.0.0.1:6379';
const PREFIX = `tg-test-${randomUUID()}:`;
const QUOTA = 20;
/** leaseSize 2, a tenth of 20 is 2: each gateway's chunk, so its most credit past the quota. */
const CHUNK = 2;
const BOUND = 2 * CHUNK;
const DAY_SEC = 86_400;
// The last second of a year: the month key turns from 2026-12 to 2027-01.
const clock = createFakeClock(Date.UTC(2026, 11, 31, 23, 59, 59));
let upstream: TestUpstream;
let gateways: RunningGateway[];
let projectId: string;
let token: string;

beforeAll(async () => {
  upstream = await startTestUpstream({
    env: { PUBLIC_URL: ISSUER },
    clock,
    routes: [
      { path: '/api/ping', scope: 'phone', errorExtra: {}, handle: () => ({ status: 200, body: { ok: true } }) },
    ],
  });
  const env = {
    UPSTREAM_URL: upstream.upstream.url,
    ISSUER,
    FEED_TOKEN: upstream.upstream.feedToken.value,
    REDIS_URL,
    REDIS_PREFIX: PREFIX,
  };
  const config = loadGatewayConfig(join(import.meta.dirname, 'month.yaml'), env);
  gateways = await Promise.all(
    [0, 1].map(() => startGateway(config, { log: createLogSink('warn').log, env, watch: false, clock })),
  );
  await Promise.all(gateways.map((g) => g.ready()));
  const project = (await upstream.admin('POST', '/projects', { name: 'monthly', plan: 'business' })).body as {
    id: string;
  };
  projectId = project.id;
  const client = (await upstream.admin('POST', `/projects/${projectId}/clients`, { name: 'c', scopes: ['phone'] }))
    .body as { client_id: string; client_secret: string };
  token = await clientCredentialsToken(upstream.upstream.url, client.client_id, client.client_secret);
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await upstream.destroy();
  // A quota's key lives to its month's end and a day (the fake one): leave none in the machine's Redis.
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const call = (g: RunningGateway) => fetch(`${g.url}/api/ping`, { headers: { authorization: `Bearer ${token}` } });

/**
 * Calls the two gateways in turn until both refuse: calls one took on credit are charged to
 * Redis by its next lease, so by then the admitted calls are all the month's key was charged.
 * Stops past the bound, so a quota that no longer holds fails rather than runs on.
 */
async function exhaust(): Promise<{ admitted: number; refused: Response[] }> {
  let admitted = 0;
  const refused: Response[] = [];
  const done = new Set<number>();
  for (let i = 0; done.size < 2 && admitted <= QUOTA + BOUND; i++) {
    const res = await call(gateways[i % 2] as RunningGateway);
    if (res.status === 200) {
      if (done.has(i % 2)) throw new Error('admitted after refusing: the quota is not held');
      admitted++;
      await res.arrayBuffer();
    } else {
      refused.push(res);
      done.add(i % 2);
    }
  }
  return { admitted, refused };
}

async function expectRefused(res: Response, until: string, retryAfterSec: number): Promise<void> {
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({
    message: `Monthly quota exhausted until ${until}`,
    error_code: '1046',
    success: false,
  });
  expect(res.headers.get('retry-after')).toBe(String(retryAfterSec));
  expect(res.headers.get('ratelimit-policy')).toBe(`"quota";q=${QUOTA};w=${31 * DAY_SEC}`);
  expect(res.headers.get('ratelimit')).toBe(`"quota";r=0;t=${retryAfterSec}`);
}

interface Usage {
  month: string;
  calls: number;
  quota: number | null;
  days: Array<{ day: string; calls: number }>;
}

async function usageOf(month: string, calls: number): Promise<Usage> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const usage = (await upstream.admin('GET', `/projects/${projectId}/usage?month=${month}`)).body as Usage;
    if (usage.calls >= calls || Date.now() > deadline) return usage;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a monthly quota shared by two gateways through Redis, across the turn of the month', () => {
  it('refuses past the quota until the next month starts (UTC), then counts the new month afresh', async () => {
    const first = await call(gateways[0] as RunningGateway);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit')).toBe(`"quota";r=${QUOTA - 1};t=1`);
    const december = await exhaust();
    const decemberAdmitted = december.admitted + 1;
    // Each gateway alone would admit the whole quota; together, at most one chunk of credit each past it.
    expect(decemberAdmitted).toBeGreaterThanOrEqual(QUOTA);
    expect(decemberAdmitted).toBeLessThanOrEqual(QUOTA + BOUND);
    for (const g of gateways) await expectRefused(await call(g), '2027-01-01T00:00:00Z', 1);

    clock.advance(1_000);
    const january = await call(gateways[1] as RunningGateway);
    expect(january.status).toBe(200);
    // A key of its own: the whole quota left, full again in 31 days.
    expect(january.headers.get('ratelimit')).toBe(`"quota";r=${QUOTA - 1};t=${31 * DAY_SEC}`);
    const rest = await exhaust();
    const januaryAdmitted = rest.admitted + 1;
    expect(januaryAdmitted).toBeGreaterThanOrEqual(QUOTA);
    expect(januaryAdmitted).toBeLessThanOrEqual(QUOTA + BOUND);
    for (const g of gateways) await expectRefused(await call(g), '2027-02-01T00:00:00Z', 31 * DAY_SEC);

    // The usage reports keep December's calls on its last day, apart from January's.
    const past = await usageOf('2026-12', decemberAdmitted);
    expect(past).toMatchObject({ month: '2026-12', calls: decemberAdmitted, quota: QUOTA });
    expect(past.days).toHaveLength(31);
    expect(past.days.at(-1)).toEqual({ day: '2026-12-31', calls: decemberAdmitted });
    const current = await usageOf('2027-01', januaryAdmitted);
    expect(current).toMatchObject({ month: '2027-01', calls: januaryAdmitted, quota: QUOTA });
    expect(current.days).toEqual([{ day: '2027-01-01', calls: januaryAdmitted }]);
  });
});
