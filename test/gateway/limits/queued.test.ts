import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { ENGINES } from '../support/engines.ts';

describe.each(ENGINES)('on the %s engine', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(import.meta.dirname, { engine, file: join(import.meta.dirname, 'one-socket.yaml') });
  });
  afterAll(() => h.close());

  /** A chunked POST whose single chunk is over maxBodyBytes (1000): answered 413 at once. */
  function oversizedUpload(): Promise<number> {
    const { port } = new URL(h.gateway.url);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/upload',
          method: 'POST',
          agent: false,
          headers: { 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('q'.repeat(1_200));
    });
  }

  describe('a request waiting for an upstream socket', () => {
    it('is dropped, not sent, when it was answered 413 while it waited, so it never holds the socket it gets', async () => {
      const release = h.upstream.hold();
      const slow = h.fetch('/api/slow');
      await vi.waitFor(() => expect(h.upstream.seen.some((r) => r.url === '/api/slow')).toBe(true), {
        timeout: 10_000,
      });
      // The only upstream socket is busy: this upload waits in the agent's queue when it is refused.
      expect(await oversizedUpload()).toBe(413);
      release();
      expect((await slow).status).toBe(200);
      // Had the refused upload taken the socket once it came free, it would hold it (it never sends a thing) until the
      // upstream drops the idle connection (5 s keep-alive here), and this request would wait behind it (6 s measured).
      const started = performance.now();
      expect((await h.fetch('/api/after')).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(h.upstream.seen.filter((r) => r.url === '/api/upload')).toEqual([]);
    });
  });

  describe('the wait for an upstream socket', () => {
    it('is bounded by connectTimeoutMs: a request still queued then gets 502 JSON, and the pool keeps serving', async () => {
      // Regression: a queued request had no timer; behind a stalled upstream it waited for the busy socket's own response timeout (30 s here).
      // Held until the queued request has its answer: it never gets the socket, however long it waited.
      const release = h.upstream.hold();
      const slow = h.fetch('/api/stalled');
      await vi.waitFor(() => expect(h.upstream.seen.some((r) => r.url === '/api/stalled')).toBe(true), {
        timeout: 10_000,
      });
      const started = performance.now();
      const queued = await h.fetch('/api/queued');
      const waited = performance.now() - started;
      expect({ status: queued.status, body: await queued.json() }).toEqual({
        status: 502,
        body: { completions: [], message: 'Upstream service unavailable', error_code: '1050', success: false },
      });
      expect(waited).toBeGreaterThanOrEqual(900);
      expect(waited).toBeLessThan(3_500);
      // The request that held the socket is unaffected, and the one that gave up never reaches the upstream.
      release();
      expect((await slow).status).toBe(200);
      expect((await h.fetch('/api/next')).status).toBe(200);
      expect(h.upstream.seen.filter((r) => r.url === '/api/queued')).toEqual([]);
      const metrics = await (await fetch(h.gateway.metricsUrl)).text();
      expect(metrics).toMatch(/tokengate_gateway_upstream_failures_total\{kind="upstream_unavailable"\} 1/);
    });

    it('does not fail a request that gets its socket within connectTimeoutMs', async () => {
      h.upstream.setDelay(400);
      const first = h.fetch('/api/first');
      await vi.waitFor(() => expect(h.upstream.seen.some((r) => r.url === '/api/first')).toBe(true), {
        timeout: 10_000,
      });
      const second = await h.fetch('/api/second');
      expect([(await first).status, second.status]).toEqual([200, 200]);
      h.upstream.setDelay(0);
    });
  });
});
