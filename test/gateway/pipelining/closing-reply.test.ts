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

  /**
   * Two requests pipelined behind `first`, one to an `auth: none` route and one with a valid token,
   * each with its own request id so its access line (had it been handled) can be found.
   */
  async function behind(label: string): Promise<string> {
    const token = bearer(await h.kit.tokenWithScopes(['phone']));
    return (
      `GET /public/behind-${label} HTTP/1.1\r\nHost: a\r\nX-Request-Id: behind-public-${label}\r\n\r\n` +
      `GET /api/behind-${label} HTTP/1.1\r\nHost: a\r\nAuthorization: ${token}\r\nX-Request-Id: behind-api-${label}\r\n\r\n`
    );
  }

  /**
   * Whether the gateway handled anything of `label`'s requests behind the first: the upstream saw
   * it, or it has an access line. Asked after a request on another connection has been answered,
   * so a request handled on the first connection would have been seen by then.
   */
  async function handledBehind(label: string): Promise<string[]> {
    expect((await h.fetch('/public/sentinel')).status).toBe(200);
    const forwarded = h.upstream.seen.map((r) => r.url).filter((url) => url.includes(`behind-${label}`));
    const logged = h.logs
      .entries()
      .map((e) => e['reqId'])
      .filter((id): id is string => typeof id === 'string' && id.endsWith(`-${label}`));
    return [...forwarded, ...logged];
  }

  describe('nothing on a connection is handled after a reply that closes it (RFC 9112 §9.6)', () => {
    beforeAll(async () => {
      // A pooled upstream connection: a request handled behind the reply would reach the upstream at once.
      expect((await h.fetch('/public/warm')).status).toBe(200);
    });

    it.each([
      ['two-hosts', 'GET /public/first HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', 400],
      ['absolute-form-userinfo', 'GET http://user@a/public/first HTTP/1.1\r\nHost: a\r\n\r\n', 400],
      [
        'body-declared-too-large',
        `POST /public/first HTTP/1.1\r\nHost: a\r\nContent-Length: 2000\r\n\r\n${'x'.repeat(2000)}`,
        413,
      ],
      ['client-close', 'GET /public/first HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 200],
      ['http-1.0', 'GET /public/first HTTP/1.0\r\n\r\n', 200],
    ])('answers only the first request when its reply closes the connection (%s)', async (label, first, status) => {
      const replies = frameResponses(await rawExchange(h.gateway.url, first + (await behind(label))));
      expect(replies.map((r) => [r.status, r.headers['connection']])).toEqual([[status, 'close']]);
      expect(await handledBehind(label)).toEqual([]);
    });

    it('answers a malformed request pipelined behind a slow one after that one’s reply, then closes', async () => {
      // Regression: the 400 went out at once, ahead of the reply to the valid request, which was then lost.
      const text = await rawExchange(
        h.gateway.url,
        'GET /public/slow-valid?delayMs=200 HTTP/1.1\r\nHost: a\r\n\r\nNOT AN HTTP REQUEST\r\n\r\n',
      );
      const replies = frameResponses(text);
      expect(replies.map((r) => r.status)).toEqual([200, 400]);
      expect(JSON.parse(replies[0]?.body ?? '')).toMatchObject({ url: '/public/slow-valid?delayMs=200' });
      expect(JSON.parse(replies[1]?.body ?? '')).toEqual({
        message: 'Malformed HTTP request',
        error_code: '1000',
        success: false,
      });
    });

    it('answers CONNECT pipelined behind a slow request after that one’s reply, then closes', async () => {
      const text = await rawExchange(
        h.gateway.url,
        'GET /public/slow-before-connect?delayMs=200 HTTP/1.1\r\nHost: a\r\n\r\nCONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n',
      );
      expect(frameResponses(text).map((r) => r.status)).toEqual([200, 501]);
    });

    it('still answers every request pipelined behind replies that keep the connection', async () => {
      const text = await rawExchange(
        h.gateway.url,
        'GET /public/one?delayMs=100 HTTP/1.1\r\nHost: a\r\n\r\n' +
          'GET /public/two HTTP/1.1\r\nHost: a\r\n\r\n' +
          'GET /public/three HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
      );
      const urls = frameResponses(text).map((r) => (JSON.parse(r.body) as { url: string }).url);
      expect(urls).toEqual(['/public/one?delayMs=100', '/public/two', '/public/three']);
    });
  });
});
