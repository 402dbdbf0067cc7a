import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { frameResponses } from '../support/http-framing.ts';
import { rawExchange } from '../support/raw-request.ts';
import { ENGINES } from '../support/engines.ts';

describe.each(ENGINES)('on the %s engine', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(import.meta.dirname, { engine });
  });
  afterAll(() => h.close());

  /** The statuses on the connection and the URL each final reply answers, as a client frames them. */
  function framed(text: string): Array<[number, string]> {
    return frameResponses(text).map((r) => [
      r.status,
      r.status < 200 ? '' : (JSON.parse(r.body) as { url: string }).url,
    ]);
  }

  describe('interim replies on a pipelined connection', () => {
    it('writes the 100 Continue of a request pipelined behind a slow bearer request after that whole reply', async () => {
      // Regression: the 100 Continue went out between the second request's own head and body, when
      // that reply (framed by Content-Length) was written while the first was still under way.
      const token = bearer(await h.kit.tokenWithScopes(['phone']));
      const text = await rawExchange(
        h.gateway.url,
        `GET /api/slow?delayMs=300 HTTP/1.1\r\nHost: a\r\nAuthorization: ${token}\r\n\r\n` +
          `POST /api/upload?sized=1 HTTP/1.1\r\nHost: a\r\nAuthorization: ${token}\r\nExpect: 100-continue\r\n` +
          'Content-Length: 5\r\nConnection: close\r\n\r\nhello',
      );
      expect(framed(text)).toEqual([
        [200, '/api/slow?delayMs=300'],
        [100, ''],
        [200, '/api/upload?sized=1'],
      ]);
    });

    it('relays the upstream’s 102 and 103 of a pipelined request after the reply ahead and before its own', async () => {
      const token = bearer(await h.kit.tokenWithScopes(['phone']));
      const text = await rawExchange(
        h.gateway.url,
        'GET /public/slow?delayMs=300 HTTP/1.1\r\nHost: a\r\n\r\n' +
          `GET /api/hints?sized=1 HTTP/1.1\r\nHost: a\r\nAuthorization: ${token}\r\nConnection: close\r\n\r\n`,
      );
      expect(frameResponses(text).map((r) => [r.status, r.body])).toEqual([
        [200, expect.stringContaining('/public/slow?delayMs=300')],
        [102, ''],
        [103, ''],
        [200, 'final'],
      ]);
    });
  });
});
