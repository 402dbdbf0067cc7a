import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTokenClient } from '../../src/client/index.ts';
import { startTokenServer, type TokenServer } from './token-server.ts';

let server: TokenServer;
beforeEach(async () => {
  server = await startTokenServer();
});
afterEach(async () => {
  await server.close();
});

function client() {
  return createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: 's3cret' });
}

describe('fetch with the bearer token', () => {
  it('adds Authorization: Bearer and keeps the caller headers', async () => {
    const c = client();
    const res = await c.fetch(server.apiUrl, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, token: 'tok-1' });
  });

  it('refuses to send the token over plain http to a non-loopback host, before asking for a token', async () => {
    await expect(client().fetch('http://api.example.com/api/phone/v1/verification')).rejects.toThrow(TypeError);
    await expect(client().fetch('http://127.example.com/api/phone/v1/verification')).rejects.toThrow(
      'request URL uses plain http to a non-loopback host',
    );
    expect(server.tokenRequests).toHaveLength(0);
  });

  it('retries once with a fresh token when the answer is 1030 (token expired)', async () => {
    const c = client();
    await c.getToken();
    server.expired = new Set(['tok-1']);
    const res = await c.fetch(server.apiUrl);
    expect(res.status).toBe(200);
    expect(server.apiCalls).toEqual(['tok-1', 'tok-2']);
    expect(server.tokenRequests).toHaveLength(2);
    expect(await c.getToken()).toBe('tok-2');
  });

  it('retries only once: a second 1030 is returned to the caller', async () => {
    server.expired = 'all';
    const res = await client().fetch(server.apiUrl);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: '1030' });
    expect(server.apiCalls).toHaveLength(2);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('retries once with a fresh token when the token was revoked (1024 OAuth key has been revoked)', async () => {
    // Regression: the revoked token stayed cached, so after an operator revoked one token every call failed until it expired (up to an hour).
    const c = client();
    await c.getToken();
    server.revoked = new Set(['tok-1']);
    const res = await c.fetch(server.apiUrl);
    expect(res.status).toBe(200);
    expect(server.apiCalls).toEqual(['tok-1', 'tok-2']);
    expect(await c.getToken()).toBe('tok-2');
  });

  it('retries a revoked token only once: a second revoked answer is returned to the caller', async () => {
    server.revoked = 'all';
    const res = await client().fetch(server.apiUrl);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: '1024', message: 'OAuth key has been revoked' });
    expect(server.apiCalls).toHaveLength(2);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('rejects with invalid_client when a revoked token cannot be replaced because the client was disabled', async () => {
    const c = client();
    await c.getToken();
    server.revoked = 'all';
    server.failWith = { status: 401, body: JSON.stringify({ error: 'invalid_client' }) };
    await expect(c.fetch(server.apiUrl)).rejects.toMatchObject({ name: 'TokenEndpointError', error: 'invalid_client' });
    expect(server.apiCalls).toHaveLength(1);
  });

  it('does not retry other 401 answers such as 1026 (missing scope) or 1024 (invalid token)', async () => {
    for (const code of ['1026', '1024']) {
      server.otherFailure = code;
      const before = server.apiCalls.length;
      const res = await client().fetch(server.apiUrl);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error_code: code });
      expect(server.apiCalls.length - before).toBe(1);
    }
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('refreshes once when many concurrent calls all meet 1030 with the same token', async () => {
    const c = client();
    await c.getToken();
    server.expired = new Set(['tok-1']);
    const responses = await Promise.all(Array.from({ length: 20 }, () => c.fetch(server.apiUrl)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('honours the caller AbortSignal while the token is still being requested, without failing the others', async () => {
    server.delayMs = 1500;
    const c = client();
    const shared = c.getToken();
    const controller = new AbortController();
    const started = Date.now();
    const call = c.fetch(server.apiUrl, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.apiCalls).toHaveLength(0);
    // The token request went on for the other caller, and filled the cache once.
    expect(await shared).toBe('tok-1');
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('rejects at once with the reason of a signal that is already aborted or times out, asking for no token first', async () => {
    server.delayMs = 1500;
    const c = client();
    await expect(c.fetch(server.apiUrl, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.tokenRequests).toHaveLength(0);
    const started = Date.now();
    await expect(c.fetch(server.apiUrl, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.apiCalls).toHaveLength(0);
  });

  it.each([
    {
      kind: 'an async generator',
      body: () =>
        (async function* () {
          yield new TextEncoder().encode('q=1+george');
        })(),
    },
    { kind: 'a Node Readable', body: () => Readable.from([Buffer.from('q=1+george')]) },
    { kind: 'a ReadableStream', body: () => new Blob(['q=1+george']).stream() },
  ])('returns the 1030 answer instead of resending $kind body, which the first attempt consumed', async ({ body }) => {
    const c = client();
    await c.getToken();
    server.expired = new Set(['tok-1']);
    const init = { method: 'POST', body: body(), duplex: 'half' } as RequestInit;
    const res = await c.fetch(server.apiUrl, init);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: '1030' });
    expect(server.apiBodies).toEqual(['q=1+george']);
  });

  it.each([
    { kind: 'string', body: () => 'q=1+george' },
    { kind: 'Uint8Array', body: () => new TextEncoder().encode('q=1+george') },
    { kind: 'Blob', body: () => new Blob(['q=1+george']) },
    { kind: 'URLSearchParams', body: () => new URLSearchParams({ q: '1 george' }) },
  ])('resends a $kind body whole with the fresh token after 1030', async ({ body }) => {
    const c = client();
    await c.getToken();
    server.expired = new Set(['tok-1']);
    const res = await c.fetch(server.apiUrl, { method: 'POST', body: body() });
    expect(res.status).toBe(200);
    expect(server.apiCalls).toEqual(['tok-1', 'tok-2']);
    expect(server.apiBodies).toEqual(['q=1+george', 'q=1+george']);
  });

  it('returns a 401 whose JSON body is large and still arriving without reading it to the end, and does not retry it', async () => {
    let bodyEnded = false;
    const api = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      // 1 MiB of a JSON error body that has not ended (an endless or huge answer).
      res.write(`{"error_code":"1030","message":"${'x'.repeat(1024 * 1024)}`);
      res.on('close', () => {
        bodyEnded = true;
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api`;
      const answered = client().fetch(url);
      const res = await Promise.race([
        answered,
        new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 3000)),
      ]);
      expect(res).not.toBe('stuck');
      expect((res as Response).status).toBe(401);
      expect(server.tokenRequests).toHaveLength(1);
      expect(bodyEnded).toBe(false);
      await (res as Response).body?.cancel();
    } finally {
      api.closeAllConnections();
      await new Promise((resolve) => api.close(resolve));
    }
  });

  it('returns a 401 whose small JSON body stalls before its end, instead of waiting for the rest (regression: fetch never resolved)', async () => {
    const api = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      // A few bytes of an error body, then nothing: a stalled upstream or intermediary.
      res.write('{"error_code":"1030","message":"Token exp');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api`;
      const res = await Promise.race([
        client().fetch(url),
        new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 3000)),
      ]);
      expect(res).not.toBe('stuck');
      expect((res as Response).status).toBe(401);
      expect(server.tokenRequests).toHaveLength(1);
      await (res as Response).body?.cancel();
    } finally {
      api.closeAllConnections();
      await new Promise((resolve) => api.close(resolve));
    }
  });
});
