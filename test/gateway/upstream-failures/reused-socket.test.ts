import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { ENGINES } from '../support/engines.ts';

describe.each(ENGINES)('on the %s engine', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(import.meta.dirname, { engine, file: join(import.meta.dirname, 'patient.yaml') });
  });
  afterAll(() => h.close());

  describe('a request on a pooled upstream socket', () => {
    it("waits the configured responseTimeoutMs, not the idle timeout the upstream's keep-alive hint set on the socket", async () => {
      // Regression: Node's agent shortens an idle pooled socket's timeout to the upstream's `Keep-Alive: timeout=5`
      // less a second, and keeps it when the socket is reused, so any answer slower than 4 s on a reused socket was 504.
      // A hint of 3 s does the same in less time: 2 s idle for Node's agent, 1 s for undici's (the hint less 2 s).
      const warm = await h.fetch('/api/warm?keepAlive=3');
      expect(warm.status).toBe(200);
      await warm.text();
      h.upstream.setDelay(2_600);
      const slow = await h.fetch('/api/slow');
      h.upstream.setDelay(0);
      expect({ status: slow.status, seen: h.upstream.seen.map((r) => r.url) }).toEqual({
        status: 200,
        seen: ['/api/warm?keepAlive=3', '/api/slow'],
      });
    });
  });
});
