import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createFakeClock } from '#test/fake-clock.ts';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function jtiOf(token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { jti: string }).jti;
}

/** Calls until the status changes from 200 or the deadline passes; returns ms taken. */
async function msUntilRefused(
  harness: Harness,
  authorization: string,
  deadlineMs: number,
): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  for (;;) {
    const res = await harness.fetch('/api/any-token', { headers: { authorization } });
    const body: unknown = await res.json();
    if (res.status !== 200 || performance.now() - started > deadlineMs)
      return { ms: performance.now() - started, body };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('revocation through the feed', () => {
  it('refuses a revoked token within 1 s of the revocation, even though it was cached', async () => {
    h = await startHarness(import.meta.dirname);
    const token = await h.kit.goodToken();
    expect((await h.fetch('/api/any-token', { headers: { authorization: bearer(token) } })).status).toBe(200);
    h.feed.revoke({
      kind: 'jti',
      value: jtiOf(token),
      issuedBefore: null,
      expiresAt: Math.floor(Date.now() / 1000) + 900,
    });
    const { ms, body } = await msUntilRefused(h, bearer(token), 2_000);
    expect(body).toEqual({ message: 'OAuth key has been revoked', error_code: '1024', success: false });
    expect(ms).toBeLessThan(1_000);
  });

  it('refuses every token of a client revoked before a time, and accepts its later ones', async () => {
    h = await startHarness(import.meta.dirname);
    const old = await h.kit.goodToken();
    const nowSec = Math.floor(Date.now() / 1000);
    h.feed.revoke({ kind: 'client', value: 'client-1', issuedBefore: nowSec, expiresAt: nowSec + 3_600 });
    expect((await msUntilRefused(h, bearer(old), 2_000)).body).toMatchObject({
      error_code: '1024',
      message: 'OAuth key has been revoked',
    });
    const later = await h.kit.goodToken({ claims: { iat: nowSec + 1 } });
    expect((await h.fetch('/api/any-token', { headers: { authorization: bearer(later) } })).status).toBe(200);
  });

  it('asks the issuer to hold a quiet poll for half of a short maxStalenessSec, so a healthy feed never turns the set stale', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tg-staleness-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'gateway.yaml');
    const source = await readFile(join(import.meta.dirname, 'gateway.yaml'), 'utf8');
    await writeFile(file, source.replace('maxStalenessSec: 30', 'maxStalenessSec: 6'));
    h = await startHarness(import.meta.dirname, { file });
    const feed = h.feed;
    await expect.poll(() => feed.requests.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    // The first sync is never held (readiness waits for it); the long polls after it are.
    expect(feed.requests.map((r) => r.wait).slice(0, 2)).toEqual(['0', '3']);
  });

  it('fails closed with 503 once the feed is unreachable past maxStalenessSec, and /readyz says why', async () => {
    const clock = createFakeClock(Date.now());
    h = await startHarness(import.meta.dirname, { clock });
    const token = await h.kit.goodToken({ expiresInSec: 3_000 });
    h.feed.setDown(true);
    clock.advanceSec(31);
    const res = await h.fetch('/api/any-token', { headers: { authorization: bearer(token) } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error_code: '1053', success: false });
    const ready = await h.fetch('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      ready: false,
      checks: { keys: { ok: true }, revocations: { ok: false, stale: true } },
    });
    const metrics = await (await fetch(h.gateway.metricsUrl)).text();
    expect(metrics).toMatch(/tokengate_gateway_revocation_stale 1/);
    expect(metrics).toMatch(/tokengate_gateway_revocation_lag_seconds (3[1-9]|[4-9]\d)/);
  });
});
