import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { largeByte } from '../support/echo-upstream.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { rawRequest } from '../support/raw-request.ts';
import { ENGINES } from '../support/engines.ts';

describe.each(ENGINES)('on the %s engine', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(import.meta.dirname, { engine });
  });
  afterAll(() => h.close());

  async function echoed(res: Response): Promise<{ url: string; headers: Record<string, string> }> {
    expect(res.status).toBe(200);
    return (await res.json()) as { url: string; headers: Record<string, string> };
  }

  describe('forwarding an accepted bearer request', () => {
    it('injects the identity header after stripping forged ones and keeps Authorization for the upstream', async () => {
      const token = await h.kit.tokenWithScopes(['address']);
      const res = await h.fetch('/api/au/address/autocomplete?q=1+George+St', {
        headers: {
          authorization: bearer(token),
          'x-tokengate-identity': 'client_id="forged"',
          'x-tokengate-scopes': 'address phone email',
        },
      });
      const seen = await echoed(res);
      expect(seen.url).toBe('/api/au/address/autocomplete?q=1+George+St');
      expect(seen.headers).toMatchObject({
        authorization: bearer(token),
        'x-forwarded-proto': 'http',
        'x-forwarded-for': '127.0.0.1',
      });
      expect(seen.headers['x-tokengate-identity']).toMatch(
        /^client_id="client-1", project_id="project-1", scope="address", jti="[0-9a-f-]{36}"$/,
      );
      expect(seen.headers['x-tokengate-scopes']).toBeUndefined();
    });

    it('forwards claims that are not printable ASCII as a display string instead of failing the request', async () => {
      const token = await h.kit.tokenWithScopes(['address'], {
        claims: { client_id: 'café\r\nx-evil: 1', jti: 'j-"1"' },
      });
      const seen = await echoed(
        await h.fetch('/api/au/address/autocomplete?q=x', { headers: { authorization: bearer(token) } }),
      );
      expect(seen.headers['x-tokengate-identity']).toBe(
        'client_id=%"caf%c3%a9%0d%0ax-evil: 1", project_id="project-1", scope="address", jti="j-\\"1\\""',
      );
      expect(seen.headers['x-evil']).toBeUndefined();
    });

    it('strips hop-by-hop headers both ways and answers with the request id', async () => {
      const res = await rawRequest(h.gateway.url, '/public/x', {
        headers: { connection: 'keep-alive, x-hop', 'x-hop': 'secret', 'x-request-id': 'trace-123' },
      });
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe('trace-123');
      expect(res.headers['x-upstream']).toBe('echo');
      expect(res.headers['keep-alive']).toBeUndefined();
      const seen = JSON.parse(res.body) as { headers: Record<string, string> };
      expect(seen.headers['x-hop']).toBeUndefined();
      expect(seen.headers['x-request-id']).toBe('trace-123');
    });

    it("passes the client's Forwarded header on with this hop appended, and none of its X-Forwarded-Port or X-Real-IP", async () => {
      const res = await rawRequest(h.gateway.url, '/public/x', {
        headers: { forwarded: 'for=198.51.100.9', 'x-forwarded-port': '443', 'x-real-ip': '198.51.100.9' },
      });
      const seen = JSON.parse(res.body) as { headers: Record<string, string> };
      expect(seen.headers.forwarded).toMatch(
        /^for=198\.51\.100\.9, for=127\.0\.0\.1;host="127\.0\.0\.1:\d+";proto=http$/,
      );
      expect(seen.headers['x-forwarded-port']).toBeUndefined();
      expect(seen.headers['x-real-ip']).toBeUndefined();
    });

    it('answers Connection: close to a client that asked to close, in any spelling, and keep-alive otherwise', async () => {
      for (const connection of ['close', 'Close', 'x-hop, close']) {
        const res = await rawRequest(h.gateway.url, '/public/x', { headers: { connection } });
        expect({ connection, status: res.status, reply: res.headers.connection }).toEqual({
          connection,
          status: 200,
          reply: 'close',
        });
      }
      expect(
        (await rawRequest(h.gateway.url, '/public/x', { headers: { connection: 'keep-alive' } })).headers.connection,
      ).toBe('keep-alive');
    });

    it.each(['DELETE', 'OPTIONS'])(
      "forwards a chunked %s body as that request's body, never as a request of its own (smuggling)",
      async (method) => {
        // Sent chunked, this body is one upstream request's body; framed as content-length 0 upstream, it is a request.
        const smuggled = 'GET /internal/smuggled HTTP/1.1\r\nHost: x\r\n\r\n';
        const res = await rawRequest(h.gateway.url, '/public-delete/x', {
          method,
          headers: { 'transfer-encoding': 'chunked' },
          body: smuggled,
        });
        expect(res.status).toBe(200);
        expect(JSON.parse(res.body)).toMatchObject({ method, bodyBytes: smuggled.length });
        // Give a smuggled request time to reach the upstream, were it sent as one.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(h.upstream.seen.filter((r) => r.url.startsWith('/internal'))).toEqual([]);
      },
    );

    it('does not forward Expect: 100-continue, which this hop has already answered', async () => {
      const res = await rawRequest(h.gateway.url, '/public/upload', {
        method: 'POST',
        headers: { expect: '100-continue', 'content-type': 'text/plain' },
        body: 'payload',
      });
      expect(res.status).toBe(200);
      const seen = JSON.parse(res.body) as { headers: Record<string, string>; bodyBytes: number };
      expect(seen.headers['expect']).toBeUndefined();
      expect(seen.bodyBytes).toBe(7);
    });

    it('streams request bodies to the upstream', async () => {
      const body = 'x'.repeat(200_000);
      const res = await h.fetch('/public/upload', { method: 'POST', body });
      expect(((await res.json()) as { bodyBytes: number }).bodyBytes).toBe(200_000);
    });

    it('streams a large reply to the client byte for byte', async () => {
      const res = await h.fetch('/public/large?mib=8');
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.length).toBe(8 * 2 ** 20);
      const wrong = body.findIndex((byte, i) => byte !== largeByte(i));
      expect(wrong).toBe(-1);
    });

    it('holds the upstream back while the client is not reading, then delivers everything', async () => {
      const before = h.upstream.largeBytesWritten();
      const total = 256 * 2 ** 20;
      const { received, writtenWhilePaused } = await new Promise<{ received: number; writtenWhilePaused: number }>(
        (resolve, reject) => {
          const req = request(`${h.gateway.url}/public/large?mib=256`, (res) => {
            let received = 0;
            res.once('data', (first: Buffer) => {
              received += first.length;
              res.pause();
              setTimeout(() => {
                const writtenWhilePaused = h.upstream.largeBytesWritten() - before;
                res.on('data', (chunk: Buffer) => {
                  received += chunk.length;
                });
                res.on('end', () => resolve({ received, writtenWhilePaused }));
                res.resume();
              }, 500);
            });
          });
          req.on('error', reject);
          req.end();
        },
      );
      // Without backpressure the gateway would read all 256 MiB into memory in those 500 ms;
      // with it, the upstream gets no further than the socket buffers of the two hops.
      expect(writtenWhilePaused).toBeLessThan(64 * 2 ** 20);
      expect(received).toBe(total);
    });

    it('passes key/secret requests without a bearer token to the upstream untouched by auth', async () => {
      const res = await h.fetch('/api/au/address/autocomplete?key=k1&secret=s1&q=x', {
        headers: { 'x-tokengate-identity': 'client_id="forged"' },
      });
      const seen = await echoed(res);
      expect(seen.url).toBe('/api/au/address/autocomplete?key=k1&secret=s1&q=x');
      expect(seen.headers['x-tokengate-identity']).toBeUndefined();
    });

    it('verifies a request without a key parameter on a key/secret route: a query alone (or a secret alone) is no credential', async () => {
      const before = h.upstream.seen.length;
      for (const query of ['q=x', 'q=x&secret=s1', 'keys=k1']) {
        const res = await h.fetch(`/api/au/address/autocomplete?${query}`);
        expect({ query, status: res.status, body: await res.json() }).toMatchObject({
          query,
          status: 401,
          body: { completions: [], error_code: '1040', success: false },
        });
      }
      expect(h.upstream.seen.length).toBe(before);
    });

    it('does not let key/secret pass on a route that does not allow it', async () => {
      const res = await h.fetch('/api/phone/v1/verification?key=k1&secret=s1');
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error_code: '1040', success: false });
    });

    it('verifies a bearer token even when key/secret parameters are also present', async () => {
      const res = await h.fetch('/api/au/address/autocomplete?key=k1', {
        headers: { authorization: 'Bearer not-a-jwt' },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        completions: [],
        message: 'Invalid bearer token',
        error_code: '1024',
        success: false,
      });
    });
  });

  describe('routing at the edge', () => {
    it('answers unknown paths with 404 JSON', async () => {
      const res = await h.fetch('/internal/revocations');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'No such endpoint', error_code: '1041', success: false });
    });

    it('answers a known path with another method with 405 and Allow', async () => {
      const res = await h.fetch('/api/phone/v1/verification', { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    });

    it("answers 405 in the route's error shape, with every method the path allows in Allow", async () => {
      const autocomplete = await h.fetch('/api/au/address/autocomplete', { method: 'DELETE' });
      expect(autocomplete.status).toBe(405);
      expect(await autocomplete.json()).toEqual({
        completions: [],
        message: 'Method not allowed',
        error_code: '1042',
        success: false,
      });
      const prefix = await h.fetch('/public/x', { method: 'DELETE' });
      expect(prefix.status).toBe(405);
      expect(prefix.headers.get('allow')).toBe('GET, POST');
    });

    it("answers with the caller's request id on the replies the gateway writes itself (404, 405, 401)", async () => {
      const replies = [
        ['GET', '/nowhere', 404],
        ['DELETE', '/api/phone/v1/verification', 405],
        ['GET', '/api/phone/v1/verification', 401],
      ] as const;
      for (const [method, path, status] of replies) {
        const res = await rawRequest(h.gateway.url, path, { method, headers: { 'x-request-id': `trace-${status}` } });
        expect({ path, status: res.status, id: res.headers['x-request-id'] }).toEqual({
          path,
          status,
          id: `trace-${status}`,
        });
      }
    });

    it('refuses a dot-segment path that would reach /internal through a prefix route', async () => {
      for (const path of [
        '/public/%2e%2e/internal/revocations',
        '/public/../internal/revocations',
        '/public/..%2finternal',
      ]) {
        const res = await rawRequest(h.gateway.url, path);
        expect(res.status).toBe(400);
        expect(JSON.parse(res.body)).toEqual({ message: 'Invalid request path', error_code: '1000', success: false });
      }
      expect(h.upstream.seen.some((r) => r.url.includes('internal'))).toBe(false);
    });

    it('refuses path parameters and double-encoded or overlong dots under an auth: none prefix, forwarding nothing', async () => {
      // Regression: `..;` passed the guard, and an upstream that drops `;…` from a segment before
      // resolving dots (Tomcat, Spring) read /public/..;/internal/revocations as /internal/revocations.
      const paths = [
        '/public/..;/internal/revocations',
        '/public/%2e%2e;x=1/internal/revocations',
        '/public/..%3b/internal/revocations',
        '/public/ok;jsessionid=1',
        '/public/%252e%252e/internal/revocations',
        '/public/%c0%ae%c0%ae/internal/revocations',
      ];
      for (const path of paths) {
        const res = await rawRequest(h.gateway.url, path);
        expect({ path, status: res.status, body: JSON.parse(res.body) }).toEqual({
          path,
          status: 400,
          body: { message: 'Invalid request path', error_code: '1000', success: false },
        });
      }
      expect(h.upstream.seen.filter((r) => paths.includes(r.url))).toEqual([]);
    });
  });

  describe('replies without a body (RFC 9112 §6.3)', () => {
    it('relays HEAD, 204 and 304 heads with no body, so the next reply on the connection is read whole', async () => {
      // One client connection for all four: a stray body after any of the first three would be
      // read as the next reply's status line, and that request would fail.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const exchange = (method: string, path: string) =>
        new Promise<{ status: number; headers: IncomingHttpHeaders; body: string; socket: unknown }>(
          (resolve, reject) => {
            const req = request(`${h.gateway.url}${path}`, { method, agent }, (res) => {
              let body = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => {
                body += chunk;
              });
              res.on('end', () =>
                resolve({ status: res.statusCode ?? 0, headers: res.headers, body, socket: req.socket }),
              );
            });
            req.on('error', reject);
            req.end();
          },
        );
      try {
        const head = await exchange('HEAD', '/api/status/head?sized=1');
        const noContent = await exchange('GET', '/api/status/204');
        const notModified = await exchange('GET', '/api/status/304');
        const after = await exchange('GET', '/api/status/after');
        expect([head, noContent, notModified].map((r) => ({ status: r.status, body: r.body }))).toEqual([
          { status: 200, body: '' },
          { status: 204, body: '' },
          { status: 304, body: '' },
        ]);
        // HEAD keeps the length the GET would have; the 304 keeps its validator.
        expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
        expect(notModified.headers.etag).toBe('"v1"');
        expect(after.status).toBe(200);
        expect(JSON.parse(after.body)).toMatchObject({ method: 'GET', url: '/api/status/after' });
        expect(new Set([head.socket, noContent.socket, notModified.socket, after.socket]).size).toBe(1);
      } finally {
        agent.destroy();
      }
    });
  });

  describe('request bodies', () => {
    it('holds the client back while the upstream does not read the body, then forwards all of it', async () => {
      const total = 128 * 2 ** 20;
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const { port } = new URL(h.gateway.url);
      let written = 0;
      let writtenWhileHeld = -1;
      const reply = new Promise<string>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/public/held-upload?delayMs=600',
            method: 'POST',
            agent: false,
            headers: { 'content-length': String(total) },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (text: string) => {
              body += text;
            });
            res.on('end', () => resolve(body));
          },
        );
        req.on('error', reject);
        setTimeout(() => {
          writtenWhileHeld = written;
        }, 450);
        const more = () => {
          while (written < total) {
            written += chunk.length;
            if (!req.write(chunk)) {
              req.once('drain', more);
              return;
            }
          }
          req.end();
        };
        more();
      });
      // Without backpressure the gateway would take the whole upload into memory while the
      // upstream reads nothing; with it, the client gets no further than the socket buffers.
      expect(Number(await reply)).toBeGreaterThanOrEqual(total);
      expect(writtenWhileHeld).toBeGreaterThan(0);
      expect(writtenWhileHeld).toBeLessThan(48 * 2 ** 20);
    });
  });
});
