import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeClock, type FakeClock } from '#test/fake-clock.ts';
import { bearer, createTestKey, createTokenKit } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { until } from '#test/until.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(): Promise<{ h: Harness; clock: FakeClock }> {
  const clock = createFakeClock(Date.now());
  h = await startHarness(import.meta.dirname, { clock });
  return { h, clock };
}

async function status(harness: Harness, token: string): Promise<number> {
  const res = await harness.fetch('/api/any-token', { headers: { authorization: bearer(token) } });
  await res.arrayBuffer();
  return res.status;
}

/** Key-set fetches the gateway has finished, its keys installed or the failure counted (its metrics). */
async function fetchesDone(harness: Harness): Promise<number> {
  const metrics = await (await fetch(harness.gateway.metricsUrl)).text();
  const counts = metrics.matchAll(/^tokengate_gateway_keyset_fetch_total\{outcome="\w+"\} (\d+)$/gm);
  return [...counts].reduce((sum, [, count]) => sum + Number(count), 0);
}

/**
 * The key set refreshes in the background: wait (bounded) until a fetch after the `before`
 * counted has finished. Counted from before the step, not from start: on a loaded machine the
 * first fetch can time out (fetchTimeoutMs 500) and its retry is a second fetch already.
 */
async function fetchFinishedAfter(harness: Harness, before: number): Promise<void> {
  await until(async () => (await fetchesDone(harness)) > before, 'a key-set fetch finished', { timeoutMs: 5_000 });
}

describe('the key set behind the gateway', () => {
  it('accepts tokens of a rotated-in key at once (one refetch on the unknown kid)', async () => {
    const { h, clock } = await start();
    const next = await createTestKey('RS256');
    h.jwks.rotate(next);
    const kit = await createTokenKit(clock, next);
    expect(await status(h, await kit.goodToken())).toBe(200);
    expect(h.jwks.requests).toBe(2);
  });

  it('accepts a new key as soon as the issuer announces it on the feed, although a junk kid spent the cooldown', async () => {
    const { h, clock } = await start();
    expect(await status(h, await h.kit.unknownKidToken())).toBe(401); // the one refetch, then a 30 s cooldown
    const next = await createTestKey('RS256');
    h.jwks.rotate(next);
    const token = await (await createTokenKit(clock, next)).goodToken();
    const published = (await (await fetch(h.jwks.url)).json()) as { keys: Array<{ kid: string }> };
    const before = h.jwks.requests;
    h.feed.announceKeys(
      2,
      published.keys.map((k) => k.kid),
    );
    await vi.waitFor(() => expect(h.jwks.requests).toBe(before + 1), { timeout: 1_000 });
    expect(await status(h, token)).toBe(200);
  });

  it('stops accepting a key removed from the set after the next refresh', async () => {
    const { h, clock } = await start();
    const token = await h.kit.goodToken({ expiresInSec: 3_000 });
    expect(await status(h, token)).toBe(200);
    h.jwks.setKeys([await createTestKey('RS256')]);
    clock.advanceSec(250); // past the refresh-ahead point of max-age=300
    const before = await fetchesDone(h);
    await status(h, token); // this request starts the refresh
    await fetchFinishedAfter(h, before);
    expect(await status(h, token)).toBe(401);
  });

  it('keeps serving the last good keys while the issuer is down, up to maxStale, then 503', async () => {
    const { h, clock } = await start();
    const token = await h.kit.goodToken({ expiresInSec: 3_000 });
    h.jwks.failNext(1_000);
    clock.advanceSec(400); // past max-age (300), within maxStale (600)
    const before = await fetchesDone(h);
    expect(await status(h, token)).toBe(200);
    await fetchFinishedAfter(h, before);
    expect(await status(h, token)).toBe(200);
    expect((await h.fetch('/readyz')).status).toBe(200);
    clock.advanceSec(600); // past max-age + maxStale
    const res = await h.fetch('/api/any-token', { headers: { authorization: bearer(token) } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error_code: '1052', success: false });
    const ready = await h.fetch('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      ready: false,
      checks: { keys: { ok: false }, revocations: { ok: true } },
    });
    const metrics = await (await fetch(h.gateway.metricsUrl)).text();
    expect(metrics).toMatch(/tokengate_gateway_keyset_fetch_total\{outcome="failed"\} [1-9]/);
    expect(metrics).toMatch(/tokengate_gateway_keyset_stale_served_total [1-9]/);
  });

  it('answers a flood of random kids without hammering the issuer (one refetch, then cooldown)', async () => {
    const { h } = await start();
    const tokens = await Promise.all(Array.from({ length: 40 }, () => h.kit.unknownKidToken()));
    const statuses = await Promise.all(tokens.map((t) => status(h, t)));
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(h.jwks.requests).toBeLessThanOrEqual(2);
    const metrics = await (await fetch(h.gateway.metricsUrl)).text();
    expect(metrics).toMatch(/tokengate_gateway_unknown_kid_total\{refetched="false"\} (3\d|40)/);
    expect(metrics).toMatch(/tokengate_gateway_unknown_kid_total\{refetched="true"\} 1\n/);
  });

  it('keeps answering known-kid tokens at once while a slow issuer holds an unknown-kid refetch', async () => {
    const { h } = await start();
    const good = await h.kit.goodToken();
    h.jwks.setDelay(2_000);
    const slow = status(h, await h.kit.unknownKidToken());
    const started = performance.now();
    expect(await status(h, good)).toBe(200);
    expect(performance.now() - started).toBeLessThan(300);
    expect(await slow).toBe(401); // the refetch gives up at fetchTimeoutMs (500 ms)
  });

  it('reports the key set age in seconds since its last fetch, apart from the revocation lag', async () => {
    const { h, clock } = await start();
    clock.advanceSec(100); // within max-age (300): no refetch
    // The feed answers a held poll every 2 s: a poll after the jump brings the revocation lag back down.
    const polls = h.feed.requests.length;
    await vi.waitFor(() => expect(h.feed.requests.length).toBeGreaterThanOrEqual(polls + 2), { timeout: 10_000 });
    const metrics = await (await fetch(h.gateway.metricsUrl)).text();
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
    expect(gauge('tokengate_gateway_keyset_age_seconds')).toBeGreaterThanOrEqual(100);
    expect(gauge('tokengate_gateway_keyset_age_seconds')).toBeLessThan(110);
    expect(gauge('tokengate_gateway_revocation_lag_seconds')).toBeLessThan(100);
    expect(h.jwks.requests).toBe(1);
  });

  it('is not ready until the first key set has loaded', async () => {
    const clock = createFakeClock(Date.now());
    const harness = await startHarness(import.meta.dirname, {
      clock,
      skipReady: true,
      env: { JWKS_URL: 'http://127.0.0.1:1/jwks.json' },
    });
    h = harness;
    const res = await harness.fetch('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ready: false, checks: { keys: { ok: false, loaded: false } } });
    const token = await harness.kit.goodToken();
    const refused = await harness.fetch('/api/any-token', { headers: { authorization: bearer(token) } });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error_code: '1052' });
  });
});
