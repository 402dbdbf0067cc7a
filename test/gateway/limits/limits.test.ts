import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { rawExchange as rawExchangeWith, rawRequest } from '../support/raw-request.ts';
import { ENGINES } from '../support/engines.ts';

describe.each(ENGINES)('on the %s engine', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(import.meta.dirname, { engine });
  });
  afterAll(() => h.close());

  /** Writes raw bytes on a fresh connection to the gateway and collects whatever comes back until it closes. */
  function rawExchange(bytes: string, endAfterWrite = false): Promise<string> {
    return rawExchangeWith(h.gateway.url, bytes, { endAfterWrite });
  }

  describe('request limits', () => {
    it('answers 413 JSON for a declared body over maxBodyBytes without forwarding it', async () => {
      const before = h.upstream.seen.length;
      const res = await h.fetch('/api/upload', { method: 'POST', body: 'x'.repeat(5_000) });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        completions: [],
        message: 'Request too large',
        error_code: '1043',
        success: false,
      });
      // The connection ends with the reply: the rest of an upload of any size is never read.
      expect(res.headers.get('connection')).toBe('close');
      expect(h.upstream.seen.length).toBe(before);
    });

    it('answers 413 for a chunked body that grows past maxBodyBytes while streaming', async () => {
      const chunks = (async function* () {
        for (let i = 0; i < 10; i++) yield new TextEncoder().encode('y'.repeat(500));
      })();
      const res = await h.fetch('/api/upload', {
        method: 'POST',
        body: ReadableStream.from(chunks),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
    });

    it('answers 413 to a chunked body over the limit sent with Expect: 100-continue and releases the upstream request', async () => {
      // Regression: a forwarded `expect` kept the 413 from aborting the upstream request, which then held an upstream socket.
      const { port } = new URL(h.gateway.url);
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/upload',
            method: 'POST',
            agent: false,
            headers: { 'transfer-encoding': 'chunked', expect: '100-continue' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        // Writes after the 413 may meet the closed connection.
        req.on('error', () => undefined);
        req.on('continue', () => {
          req.write('a'.repeat(600));
          // The upstream holds the request before the body passes the limit.
          vi.waitFor(() => expect(h.upstream.receiving()).toBeGreaterThan(0), { timeout: 10_000 }).then(
            () => req.write('b'.repeat(600)),
            reject,
          );
        });
      });
      expect(status).toBe(413);
      await vi.waitFor(() => expect(h.upstream.receiving()).toBe(0), { timeout: 10_000 });
    });

    it('forwards a chunked body under the limit', async () => {
      const res = await h.fetch('/api/upload', {
        method: 'POST',
        body: ReadableStream.from([new TextEncoder().encode('z'.repeat(900))]),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { bodyBytes: number }).bodyBytes).toBe(900);
    });

    it('forwards a body of exactly maxBodyBytes and refuses one byte more, declared or chunked', async () => {
      const chunked = (text: string) =>
        ({ body: ReadableStream.from([new TextEncoder().encode(text)]), duplex: 'half' }) as RequestInit;
      const at = 'a'.repeat(1_000);
      const over = 'a'.repeat(1_001);
      const declaredAt = await h.fetch('/api/upload', { method: 'POST', body: at });
      expect({
        status: declaredAt.status,
        bytes: ((await declaredAt.json()) as { bodyBytes: number }).bodyBytes,
      }).toEqual({ status: 200, bytes: 1_000 });
      const chunkedAt = await h.fetch('/api/upload', { method: 'POST', ...chunked(at) });
      expect({
        status: chunkedAt.status,
        bytes: ((await chunkedAt.json()) as { bodyBytes: number }).bodyBytes,
      }).toEqual({
        status: 200,
        bytes: 1_000,
      });
      expect((await h.fetch('/api/upload', { method: 'POST', body: over })).status).toBe(413);
      expect((await h.fetch('/api/upload', { method: 'POST', ...chunked(over) })).status).toBe(413);
    });

    it('serves a URL of exactly maxUrlLength and answers 414 to one character more', async () => {
      const path = '/api/x?q=';
      const at = `${path}${'a'.repeat(256 - path.length)}`;
      expect((await rawRequest(h.gateway.url, at)).status).toBe(200);
      expect((await rawRequest(h.gateway.url, `${at}a`)).status).toBe(414);
    });

    it('answers 414 JSON for a URL longer than maxUrlLength', async () => {
      const res = await h.fetch(`/api/x?q=${'a'.repeat(400)}`);
      expect(res.status).toBe(414);
      expect(await res.json()).toMatchObject({ error_code: '1043', success: false });
    });

    it('answers 431 JSON for headers over maxHeaderSize', async () => {
      const res = await rawRequest(h.gateway.url, '/api/x', { headers: { 'x-big': 'b'.repeat(4_000) } });
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body)).toEqual({ message: 'Request too large', error_code: '1043', success: false });
    });

    it('answers 400 JSON to a malformed request line', async () => {
      const reply = await rawExchange('NOT HTTP\r\n\r\n');
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toContain('"success":false');
    });

    it('refuses a request with two Host lines with 400 JSON and forwards nothing (RFC 9112 §3.2)', async () => {
      const before = h.upstream.seen.length;
      for (const second of ['Host: evil.example', 'HOST: evil.example', 'host: 127.0.0.1']) {
        const reply = await rawExchange(`GET /api/x HTTP/1.1\r\nHost: 127.0.0.1\r\n${second}\r\n\r\n`);
        expect(reply).toMatch(/^HTTP\/1\.1 400 /);
        expect(reply.slice(reply.indexOf('\r\n\r\n') + 4)).toBe(
          JSON.stringify({ message: 'More than one Host header', error_code: '1000', success: false }),
        );
      }
      expect(h.upstream.seen.length).toBe(before);
    });

    it('refuses an HTTP/1.1 request without Host with 400 JSON, and serves HTTP/1.0 without one (RFC 9112 §3.2)', async () => {
      const before = h.upstream.seen.length;
      for (const target of ['/api/x', 'http://api.example/api/x']) {
        const reply = await rawExchange(`GET ${target} HTTP/1.1\r\nConnection: close\r\n\r\n`);
        expect({ target, status: reply.slice(0, 12), body: reply.slice(reply.indexOf('\r\n\r\n') + 4) }).toEqual({
          target,
          status: 'HTTP/1.1 400',
          body: JSON.stringify({ message: 'Missing Host header', error_code: '1000', success: false }),
        });
      }
      expect(h.upstream.seen.length).toBe(before);
      expect((await rawExchange('GET /api/x HTTP/1.0\r\n\r\n')).slice(0, 12)).toBe('HTTP/1.1 200');
    });

    it('refuses an invalid Host value with 400 JSON and forwards nothing, and serves valid ones (RFC 9112 §3.2)', async () => {
      const before = h.upstream.seen.length;
      for (const host of ['a"b\\c', 'h/x', 'h:80x', 'a b', '[::1', 'h?q', 'user@h']) {
        const reply = await rawExchange(`GET /api/x HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect({ host, status: reply.slice(0, 12), body: reply.slice(reply.indexOf('\r\n\r\n') + 4) }).toEqual({
          host,
          status: 'HTTP/1.1 400',
          body: JSON.stringify({ message: 'Invalid Host header', error_code: '1000', success: false }),
        });
      }
      expect(h.upstream.seen.length).toBe(before);
      for (const host of [
        'api.example',
        'api.example:8443',
        '[::1]:80',
        '127.0.0.1',
        'xn--bcher-kva.example',
        'h%41',
        '',
      ]) {
        const reply = await rawExchange(`GET /api/x HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect({ host, status: reply.slice(0, 12) }).toEqual({ host, status: 'HTTP/1.1 200' });
      }
    });

    it('accepts an absolute-form target, forwarding origin form with its authority as Host (RFC 9112 §3.2.2)', async () => {
      const reply = await rawExchange(
        'GET http://api.example:8443/api/x?a=1 HTTP/1.1\r\nHost: ignored.example\r\nConnection: close\r\n\r\n',
      );
      expect(reply).toMatch(/^HTTP\/1\.1 200 /);
      const seen = h.upstream.seen.at(-1)!;
      expect(seen.url).toBe('/api/x?a=1');
      expect(seen.headers).toMatchObject({ host: 'api.example:8443', 'x-forwarded-host': 'api.example:8443' });
      const query = await rawExchange('GET HTTP://h?a=1 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
      expect(query).toMatch(/^HTTP\/1\.1 404 /);
    });

    it.each([
      ['another scheme', 'ftp://h/api/x'],
      ['userinfo', 'http://user:pw@h/api/x'],
      ['an asterisk', '*'],
      ['a dot segment behind the authority', 'http://h/api/../internal/x'],
      ['an unclosed IPv6 literal', 'http://[::1/api/x'],
      ['a port that is not digits', 'http://h:abc/api/x'],
      ['two ports', 'http://h:1:2/api/x'],
      ['a broken percent-encoding', 'http://h%zz/api/x'],
      ['the https scheme on a connection without TLS (RFC 9110 §7.4)', 'HTTPS://h/api/x'],
    ])('refuses an absolute-form or other target with %s with 400 JSON', async (_what, target) => {
      const before = h.upstream.seen.length;
      const reply = await rawExchange(`GET ${target} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n`);
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toContain('"error_code":"1000"');
      expect(h.upstream.seen.length).toBe(before);
    });

    it('answers CONNECT with 501 JSON instead of dropping the connection without a status line', async () => {
      const reply = await rawExchange('CONNECT upstream.example:443 HTTP/1.1\r\nHost: upstream.example:443\r\n\r\n');
      expect(reply).toMatch(/^HTTP\/1\.1 501 /);
      expect(reply).toContain('connection: close');
      expect(reply.slice(reply.indexOf('\r\n\r\n') + 4)).toBe(
        JSON.stringify({ message: 'CONNECT is not supported', error_code: '1042', success: false }),
      );
    });

    it('keeps serving when clients reset the connection right after sending CONNECT', async () => {
      // Regression: Node hands a CONNECT socket over without its error listener, so the 501 written
      // on a reset connection raised an unhandled ECONNRESET that ended the gateway process.
      const uncaught: unknown[] = [];
      const note = (error: unknown) => uncaught.push(error);
      process.on('uncaughtException', note);
      try {
        const { port } = new URL(h.gateway.url);
        for (let i = 0; i < 20; i++) {
          const client = connect(Number(port), '127.0.0.1');
          client.on('error', () => undefined);
          client.on('connect', () => {
            client.write(
              `CONNECT upstream.example:443 HTTP/1.1\r\nHost: upstream.example:443\r\n\r\n${'x'.repeat(100_000)}`,
            );
            client.resetAndDestroy();
          });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        // Nothing to wait for: the check is that no exception comes. The gateway meets each reset
        // within a few milliseconds of it, so 100 ms after the last one would have shown one.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(uncaught).toEqual([]);
        expect((await h.fetch('/api/x')).status).toBe(200);
      } finally {
        process.off('uncaughtException', note);
      }
    });

    it('serves a request asking for a protocol upgrade as a plain request, without the upgrade', async () => {
      const reply = await rawExchange(
        'GET /api/ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\r\n',
      );
      expect(reply).toMatch(/^HTTP\/1\.1 200 /);
      const seen = h.upstream.seen.at(-1)!;
      expect(seen.url).toBe('/api/ws');
      expect(seen.headers.upgrade).toBeUndefined();
    });

    it('drops a client that sends its headers but never finishes its body with 408 after requestTimeoutMs', async () => {
      const reply = await Promise.race([
        rawExchange('POST /api/upload HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nx'),
        new Promise<string>((resolve) => setTimeout(() => resolve('still open after 5 s'), 5_000).unref()),
      ]);
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    });

    it('closes an idle keep-alive connection after keepAliveTimeoutMs', async () => {
      const { port } = new URL(h.gateway.url);
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.setEncoding('utf8');
      let reply = '';
      socket.on('data', (chunk: string) => {
        reply += chunk;
      });
      socket.write('GET /api/x HTTP/1.1\r\nHost: a\r\n\r\n');
      // Node's default is 5 s: well past this wait.
      const closed = await Promise.race([
        new Promise<string>((resolve) => socket.once('close', () => resolve('closed'))),
        new Promise<string>((resolve) => setTimeout(() => resolve('still open after 3 s'), 3_000).unref()),
      ]);
      socket.destroy();
      expect(reply).toMatch(/^HTTP\/1\.1 200 /);
      expect(reply).toContain('connection: keep-alive');
      expect(closed).toBe('closed');
    });

    it('drops a client that never finishes its headers (slow loris) with 408', async () => {
      const started = Date.now();
      const reply = await rawExchange('GET /api/x HTTP/1.1\r\nHost: a\r\nX-Slow: 1\r\n');
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });
});
