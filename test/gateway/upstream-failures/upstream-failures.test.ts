import { join } from 'node:path';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '#test/stack.ts';
import { startUnacceptingListener } from '#test/unaccepting-listener.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { rawExchange, rawRequest } from '../support/raw-request.ts';
import { ENGINES } from '../support/engines.ts';

describe.each(ENGINES)('on the %s engine', (engine) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** A port nothing listens on (bound, noted and closed again). */
  const deadPort = freePort;

  describe('when the upstream fails', () => {
    it('answers 502 JSON in the documented shape when the upstream refuses connections', async () => {
      h = await startHarness(import.meta.dirname, {
        engine,
        env: { UPSTREAM_URL: `http://127.0.0.1:${await deadPort()}` },
      });
      const res = await h.fetch('/api/au/address/autocomplete?q=x', { headers: { 'x-request-id': 'trace-502' } });
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-request-id')).toBe('trace-502');
      expect(await res.json()).toEqual({
        completions: [],
        message: 'Upstream service unavailable',
        error_code: '1050',
        success: false,
      });
    });

    it('answers 502 JSON after connectTimeoutMs when a connection to the upstream never completes', async () => {
      const silent = await startUnacceptingListener();
      try {
        h = await startHarness(import.meta.dirname, {
          engine,
          file: join(import.meta.dirname, 'unreachable.yaml'),
          env: { UPSTREAM_URL: `http://127.0.0.1:${silent.port}` },
        });
        const started = Date.now();
        const res = await h.fetch('/api/au/address/autocomplete?q=x', { headers: { 'x-request-id': 'trace-connect' } });
        expect(res.status).toBe(502);
        expect(res.headers.get('x-request-id')).toBe('trace-connect');
        expect(await res.json()).toEqual({
          completions: [],
          message: 'Upstream service unavailable',
          error_code: '1050',
          success: false,
        });
        // connectTimeoutMs is 300 (responseTimeoutMs 5000): the answer comes from the connect timeout,
        // not from the response timeout or the kernel giving up (minutes).
        expect(Date.now() - started).toBeGreaterThanOrEqual(250);
        expect(Date.now() - started).toBeLessThan(2_500);
      } finally {
        silent.close();
      }
    });

    it('answers 504 JSON when the upstream is slower than responseTimeoutMs', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      h.upstream.setDelay(3_000);
      const started = Date.now();
      const res = await h.fetch('/api/phone/v1/verification', { headers: { 'x-request-id': 'trace-504' } });
      expect(res.status).toBe(504);
      expect(res.headers.get('x-request-id')).toBe('trace-504');
      expect(await res.json()).toEqual({ message: 'Upstream service timed out', error_code: '1051', success: false });
      // responseTimeoutMs is 300; undici's response timers tick twice a second and fire up to 1 s late.
      expect(Date.now() - started).toBeLessThan(engine === 'undici' ? 1_900 : 900);
    });

    it('answers 504 JSON after responseTimeoutMs for a request sent with Expect: 100-continue', async () => {
      // Regression: a forwarded `expect` made http-proxy-3 skip the event that arms the timeout, so the request waited for the upstream.
      h = await startHarness(import.meta.dirname, { engine });
      h.upstream.setDelay(3_000);
      const started = Date.now();
      const res = await rawRequest(h.gateway.url, '/api/phone/v1/verification', {
        headers: { expect: '100-continue' },
      });
      expect(res.status).toBe(504);
      expect(JSON.parse(res.body)).toEqual({
        message: 'Upstream service timed out',
        error_code: '1051',
        success: false,
      });
      expect(Date.now() - started).toBeLessThan(2_500);
    });

    it('answers 502 JSON when the upstream resets the connection before answering, and keeps serving', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const res = await h.fetch('/api/reset');
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 502,
        body: { message: 'Upstream service unavailable', error_code: '1050', success: false },
      });
      expect((await h.fetch('/api/x')).status).toBe(200);
    });

    it('closes the connection cleanly when the upstream dies after its headers were sent', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const res = await h.fetch('/api/half');
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
    });

    it('answers 502 JSON to an upstream status below 100 and keeps serving (it used to end the process)', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      for (const code of ['099', '000']) {
        const res = await h.fetch(`/api/raw-status/${code}`);
        expect({ code, status: res.status, body: await res.json() }).toEqual({
          code,
          status: 502,
          body: { message: 'Upstream service unavailable', error_code: '1050', success: false },
        });
      }
      expect((await h.fetch('/api/x')).status).toBe(200);
    });

    it('answers 502 JSON to an upstream status past 599, which no HTTP client need understand', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      for (const code of ['600', '999']) {
        const res = await h.fetch(`/api/raw-status/${code}`);
        expect({ code, status: res.status, body: await res.json() }).toEqual({
          code,
          status: 502,
          body: { message: 'Upstream service unavailable', error_code: '1050', success: false },
        });
      }
    });

    it("answers with the standard reason phrase, not the upstream's, so a control character in it cannot end the process", async () => {
      // Regression: the reason was relayed, and writeHead threw ERR_INVALID_CHAR from a socket callback: an uncaught exception.
      h = await startHarness(import.meta.dirname, { engine });
      for (const reason of ['O%01K', 'Fine%20By%20Me']) {
        const reply = await rawExchange(
          h.gateway.url,
          `GET /api/raw-reason/${reason} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n`,
        );
        expect({ reason, statusLine: reply.split('\r\n')[0], body: reply.split('\r\n\r\n')[1] }).toEqual({
          reason,
          statusLine: 'HTTP/1.1 200 OK',
          body: 'ok',
        });
      }
      expect((await h.fetch('/api/x')).status).toBe(200);
    });

    it('answers 502 JSON to an upstream switching protocols unasked (101), instead of leaving the client waiting', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const res = await h.fetch('/api/switch', { signal: AbortSignal.timeout(5_000) });
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 502,
        body: { message: 'Upstream service unavailable', error_code: '1050', success: false },
      });
      expect((await h.fetch('/api/x')).status).toBe(200);
    });

    it("relays the upstream's 102 and 103 informational replies ahead of the final one (RFC 9110 §15.2)", async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const { port } = new URL(h.gateway.url);
      const seen = await new Promise<{
        informational: Array<{ status: number; link?: string; hint?: string }>;
        status: number;
        body: string;
      }>((resolve, reject) => {
        const informational: Array<{ status: number; link?: string; hint?: string }> = [];
        const req = request({ host: '127.0.0.1', port, path: '/api/hints', agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ informational, status: res.statusCode ?? 0, body }));
        });
        req.on('information', (info) => {
          informational.push({
            status: info.statusCode,
            ...(info.headers.link ? { link: String(info.headers.link) } : {}),
            ...(info.headers['x-hint'] ? { hint: String(info.headers['x-hint']) } : {}),
          });
        });
        req.on('error', reject);
        req.end();
      });
      expect(seen).toEqual({
        informational: [{ status: 102 }, { status: 103, link: '</style.css>; rel=preload; as=style', hint: 'early' }],
        status: 200,
        body: 'final',
      });
    });

    it('sends an HTTP/1.0 client no informational reply, only the final one (RFC 9110 §15)', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const reply = await rawExchange(h.gateway.url, 'GET /api/hints HTTP/1.0\r\nHost: h\r\n\r\n');
      expect(reply).toMatch(/^HTTP\/1\.1 200 /);
      expect(reply).not.toContain(' 102 ');
      expect(reply).not.toContain(' 103 ');
      expect(reply.endsWith('final')).toBe(true);
    });

    it('drops Content-Length and Transfer-Encoding from the 103 replies it relays, which no 1xx may carry', async () => {
      // Regression: they were relayed, and a client honouring them would read the next reply as a body.
      h = await startHarness(import.meta.dirname, { engine });
      const reply = await rawExchange(
        h.gateway.url,
        'GET /api/hints-framed HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n',
      );
      const heads = reply.split('\r\n\r\n');
      expect(heads.slice(0, 2).map((head) => head.split('\r\n'))).toEqual([
        ['HTTP/1.1 103 Early Hints', 'Link: </a.css>; rel=preload'],
        ['HTTP/1.1 103 Early Hints', 'Link: </b.css>; rel=preload'],
      ]);
      expect(heads[2]).toMatch(/^HTTP\/1\.1 200 /);
      expect(heads[3]).toContain('final');
    });

    it('ends the connection with the reply when the upstream answers before the request body is complete', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const { port } = new URL(h.gateway.url);
      const reply = await new Promise<{ connection: string | undefined; body: string; closed: boolean }>(
        (resolve, reject) => {
          const req = request(
            {
              host: '127.0.0.1',
              port,
              path: '/api/early',
              method: 'POST',
              agent: false,
              headers: { connection: 'keep-alive', 'transfer-encoding': 'chunked' },
            },
            (res) => {
              let body = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => {
                body += chunk;
              });
              // The gateway closes the connection after the reply: the unsent rest of the body can never be read as a request.
              res.on('end', () =>
                req.socket?.once('close', () => resolve({ connection: res.headers.connection, body, closed: true })),
              );
            },
          );
          req.on('error', reject);
          req.write('part of a body that never ends');
        },
      );
      expect(reply).toEqual({ connection: 'close', body: 'early', closed: true });
    });

    it('counts upstream failures by kind in the metrics', async () => {
      h = await startHarness(import.meta.dirname, {
        engine,
        env: { UPSTREAM_URL: `http://127.0.0.1:${await deadPort()}` },
      });
      await (await h.fetch('/api/x')).text();
      const metrics = await (await fetch(h.gateway.metricsUrl)).text();
      expect(metrics).toMatch(/tokengate_gateway_upstream_failures_total\{kind="upstream_unavailable"\} 1/);
      expect(metrics).toMatch(/tokengate_gateway_requests_total\{route="\/api\/\*",status="502",error_code="1050"\} 1/);
    });
  });
});
