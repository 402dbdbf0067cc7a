import { Agent, type IncomingMessage, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { ENGINES } from '../support/engines.ts';

describe.each(ENGINES)('on the %s engine', (engine) => {
  let h: Harness | undefined;
  let agent: Agent | undefined;
  afterEach(async () => {
    agent?.destroy();
    // The tests close the gateway themselves; closing it again is a no-op drain.
    await h?.close();
    h = undefined;
  });

  /** A request on a keep-alive connection, with the connection it went out on. */
  function keepAliveGet(url: string): {
    socket: Promise<Socket>;
    response: Promise<{ res: IncomingMessage; body: string }>;
  } {
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const req = request(url, { agent });
    const socket = new Promise<Socket>((resolve) => req.once('socket', resolve));
    const response = new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ res, body }));
      });
      req.on('error', reject);
    });
    req.end();
    return { socket, response };
  }

  /** Starts closing the gateway once the upstream holds the request, so the request is in flight. */
  async function closeWhileInFlight(gateway: Harness): Promise<{ closing: Promise<'closed'> }> {
    await vi.waitFor(() => expect(gateway.upstream.seen.length).toBe(1), { timeout: 10_000 });
    return { closing: gateway.gateway.close().then(() => 'closed' as const) };
  }

  /** Resolves once the gateway's listener refuses new connections: close() has started the drain. */
  async function drainStarted(gateway: Harness): Promise<void> {
    const { port } = new URL(gateway.gateway.url);
    const refused = () =>
      new Promise<boolean>((resolve) => {
        const probe = connect(Number(port), '127.0.0.1');
        probe.once('connect', () => {
          probe.destroy();
          resolve(false);
        });
        probe.once('error', () => resolve(true));
      });
    await vi.waitFor(async () => expect(await refused()).toBe(true), { timeout: 10_000, interval: 10 });
  }

  /**
   * A request for a large body whose reply has started: its head is in and the client reads none of
   * the body until it resumes `res`. `rest` says whether the body then arrived whole.
   */
  async function startedReply(url: string, via: Agent | false = false) {
    const req = request(url, { agent: via });
    const socket = new Promise<Socket>((resolve) => req.once('socket', resolve));
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      req.once('response', resolve).once('error', reject).end(),
    );
    res.pause();
    let bytes = 0;
    res.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    res.on('error', () => undefined);
    const rest = new Promise<{ complete: boolean; bytes: number }>((resolve) =>
      res.once('close', () => resolve({ complete: res.complete, bytes })),
    );
    return { res, rest, socket: await socket };
  }

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Far below drainTimeoutMs and the keep-alive timeout (60 s): a drain that waited for either is still going. */
  const stillDraining = () =>
    new Promise<'still draining'>((resolve) => setTimeout(() => resolve('still draining'), 10_000).unref());

  describe('a graceful drain (close(), SIGTERM)', () => {
    it('answers a request in flight on a keep-alive connection with Connection: close, closes that connection and ends without waiting for drainTimeoutMs', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      // The upstream answers once the drain has begun, not after a delay long enough for it to begin.
      const release = h.upstream.hold();
      const { socket, response } = keepAliveGet(`${h.gateway.url}/api/slow`);
      const { closing } = await closeWhileInFlight(h);
      await drainStarted(h);
      release();
      const { res } = await response;
      expect(res.statusCode).toBe(200);
      expect(res.headers.connection).toBe('close');
      const connection = await socket;
      if (!connection.closed) await new Promise((resolve) => connection.once('close', resolve));
      expect(await Promise.race([closing, stillDraining()])).toBe('closed');
    });

    it("closes the connection after the gateway's own JSON reply to a request in flight too", async () => {
      h = await startHarness(import.meta.dirname, { engine, env: { RESPONSE_TIMEOUT_MS: '1000' } });
      // Never answered: the gateway's 504 comes a second after the request, well after the drain began.
      h.upstream.hold();
      const { socket, response } = keepAliveGet(`${h.gateway.url}/api/slow`);
      const { closing } = await closeWhileInFlight(h);
      const { res, body } = await response;
      expect(res.statusCode).toBe(504);
      expect(JSON.parse(body)).toMatchObject({ error_code: '1051' });
      expect(res.headers.connection).toBe('close');
      const connection = await socket;
      if (!connection.closed) await new Promise((resolve) => connection.once('close', resolve));
      expect(await Promise.race([closing, stillDraining()])).toBe('closed');
    });

    it('answers a request still waiting for the upstream when drainTimeoutMs runs out with 503 1054, Connection: close and its request id, instead of a reset', async () => {
      h = await startHarness(import.meta.dirname, {
        engine,
        env: { DRAIN_TIMEOUT_MS: '300', RESPONSE_TIMEOUT_MS: '60000' },
      });
      h.upstream.setDelay(30_000);
      const { response } = keepAliveGet(`${h.gateway.url}/api/slow`);
      const { closing } = await closeWhileInFlight(h);
      expect(await Promise.race([closing, stillDraining()])).toBe('closed');
      const { res, body } = await response;
      expect(res.statusCode).toBe(503);
      expect(JSON.parse(body)).toEqual({ message: 'Gateway is shutting down', error_code: '1054', success: false });
      expect(res.headers.connection).toBe('close');
      const requestId = h.upstream.seen[0]?.headers['x-request-id'];
      expect(res.headers['x-request-id']).toBe(requestId);
      // The upstream request is cancelled, and the access log has the reply like the gateway's other ones.
      await vi.waitFor(() => expect(h?.upstream.cancelled()).toBe(1));
      expect(h.logs.entries().filter((l) => l['msg'] === 'request')).toEqual([
        expect.objectContaining({
          reqId: requestId,
          route: '/api/*',
          status: 503,
          decision: 'public',
          errorCode: '1054',
        }),
      ]);
    });

    it("answers a request still waiting for its token check when drainTimeoutMs runs out with 503 1054 in its route's body shape, and never forwards it", async () => {
      h = await startHarness(import.meta.dirname, { engine, env: { DRAIN_TIMEOUT_MS: '300' } });
      const loads = h.jwks.requests;
      // An unknown kid makes the gateway fetch the key set again; the issuer holds that fetch.
      h.jwks.setDelay(2_000);
      const response = fetch(`${h.gateway.url}/autocomplete/x`, {
        headers: { authorization: bearer(await h.kit.unknownKidToken()) },
      });
      await vi.waitFor(() => expect(h?.jwks.requests).toBe(loads + 1), { timeout: 10_000 });
      expect(await Promise.race([h.gateway.close().then(() => 'closed' as const), stillDraining()])).toBe('closed');
      const res = await response;
      expect(res.status).toBe(503);
      expect(res.headers.get('connection')).toBe('close');
      expect(res.headers.get('x-request-id')).toMatch(/./);
      expect(await res.json()).toEqual({
        completions: [],
        message: 'Gateway is shutting down',
        error_code: '1054',
        success: false,
      });
      expect(h.upstream.seen).toEqual([]);
    });

    it('still cuts a reply that had already started when drainTimeoutMs runs out', async () => {
      h = await startHarness(import.meta.dirname, { engine, env: { DRAIN_TIMEOUT_MS: '300' } });
      const { res, rest } = await startedReply(`${h.gateway.url}/public/large?mib=64`);
      expect(res.statusCode).toBe(200);
      expect(await Promise.race([h.gateway.close().then(() => 'closed' as const), stillDraining()])).toBe('closed');
      res.resume();
      expect(await rest).toMatchObject({ complete: false });
    });

    it('closes a keep-alive connection whose reply started before the drain soon after that reply ends, and ends', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      agent = new Agent({ keepAlive: true, maxSockets: 1 });
      // More than the socket buffers hold: the reply is still under way as the drain starts (with
      // 8 MiB the whole reply could sit in loopback buffers, leaving an idle connection).
      const { res, rest, socket } = await startedReply(`${h.gateway.url}/public/large?mib=64`, agent);
      expect(res.headers.connection).toBe('keep-alive');
      expect(h.upstream.largeBytesWritten()).toBeLessThan(64 * 2 ** 20);
      const closing = h.gateway.close().then(() => 'closed' as const);
      await pause(100);
      res.resume();
      expect(await rest).toEqual({ complete: true, bytes: 64 * 2 ** 20 });
      const ended = performance.now();
      expect(await Promise.race([closing, stillDraining()])).toBe('closed');
      if (!socket.closed) await new Promise((resolve) => socket.once('close', resolve));
      // Not keepAliveTimeoutMs (60 s here) nor drainTimeoutMs.
      expect(performance.now() - ended).toBeLessThan(2_000);
    });

    it('answers a request sent during the drain on a keep-alive connection whose reply is still under way, with Connection: close', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const { port } = new URL(h.gateway.url);
      const client = connect(Number(port), '127.0.0.1');
      client.on('error', () => undefined);
      const chunks: Buffer[] = [];
      client.on('data', (chunk: Buffer) => chunks.push(chunk));
      const ended = new Promise((resolve) => client.once('end', resolve));
      try {
        // 64 MiB, more than the socket buffers hold: with 8 MiB the whole reply could be written before
        // the drain, whose connection is then idle and closed at once, before the second request.
        client.write('GET /public/large?mib=64 HTTP/1.1\r\nHost: h\r\n\r\n');
        await vi.waitFor(() => expect(Buffer.concat(chunks).includes('HTTP/1.1 200')).toBe(true));
        client.pause();
        expect(h.upstream.largeBytesWritten()).toBeLessThan(64 * 2 ** 20);
        const closing = h.gateway.close().then(() => 'closed' as const);
        await pause(100);
        client.write('GET /api/next HTTP/1.1\r\nHost: h\r\n\r\n');
        client.resume();
        expect(await Promise.race([closing, stillDraining()])).toBe('closed');
        await ended;
        const reply = Buffer.concat(chunks);
        const second = reply.subarray(reply.lastIndexOf('HTTP/1.1 ')).toString('latin1');
        expect(reply.indexOf('HTTP/1.1 ')).toBe(0);
        expect(second).toMatch(/^HTTP\/1\.1 200 /);
        expect(second.toLowerCase()).toContain('\r\nconnection: close\r\n');
        expect(second).toContain('"url":"/api/next"');
      } finally {
        client.destroy();
      }
    });

    /**
     * A large reply under way on a raw connection, and `GET /api/next` pipelined behind it before the
     * drain, the upstream answering it after `nextDelayMs`. Pipelined requests are handled in turn
     * (in-order.ts), so the second waits, unforwarded, until the first reply is done; the drain
     * starts while it waits. Resolves with the second reply as sent, once the drain ended (or the
     * 10 s bound passed).
     */
    async function pipelinedBeforeDrain(gateway: Harness, nextDelayMs: number) {
      const { port } = new URL(gateway.gateway.url);
      const client = connect(Number(port), '127.0.0.1');
      client.on('error', () => undefined);
      const chunks: Buffer[] = [];
      client.on('data', (chunk: Buffer) => chunks.push(chunk));
      const closed = new Promise((resolve) => client.once('close', resolve));
      try {
        client.write('GET /public/large?mib=64 HTTP/1.1\r\nHost: h\r\n\r\n');
        await vi.waitFor(() => expect(Buffer.concat(chunks).includes('HTTP/1.1 200')).toBe(true));
        client.pause();
        gateway.upstream.setDelay(nextDelayMs);
        client.write('GET /api/next HTTP/1.1\r\nHost: h\r\n\r\n');
        // Received before the drain, and held behind the first reply: the upstream does not have it yet.
        await pause(200);
        expect(gateway.upstream.seen.map((r) => r.url)).toEqual(['/public/large?mib=64']);
        // More than the socket buffers hold: the first reply is still under way as the drain starts.
        expect(gateway.upstream.largeBytesWritten()).toBeLessThan(64 * 2 ** 20);
        const closing = gateway.gateway.close().then(() => 'closed' as const);
        await pause(100);
        client.resume();
        const outcome = await Promise.race([closing, stillDraining()]);
        if (outcome === 'closed') await closed;
        const reply = Buffer.concat(chunks);
        return { outcome, second: reply.subarray(reply.lastIndexOf('HTTP/1.1 ')).toString('latin1') };
      } finally {
        client.destroy();
      }
    }

    it('answers a request pipelined before the drain behind a reply under way with Connection: close, and ends', async () => {
      // Regression: only the reply under way was told to close; the one pipelined behind it said
      // keep-alive, and its connection stayed open for keepAliveTimeoutMs, holding the drain.
      h = await startHarness(import.meta.dirname, { engine });
      // Past IDLE_AFTER_REPLY_MS (500 ms, drain.ts): the connection must wait for this answer, not close idle.
      const { outcome, second } = await pipelinedBeforeDrain(h, 1_000);
      expect(outcome).toBe('closed');
      expect(second).toContain('"url":"/api/next"');
      expect(second.toLowerCase()).toContain('\r\nconnection: close\r\n');
    });

    it('answers a request pipelined before the drain behind a reply under way at once when its turn comes, and ends', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const { outcome, second } = await pipelinedBeforeDrain(h, 0);
      expect(outcome).toBe('closed');
      expect(second).toContain('"url":"/api/next"');
      expect(second.toLowerCase()).toContain('\r\nconnection: close\r\n');
    });

    it('closes an idle keep-alive connection as soon as the drain starts', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const { socket, response } = keepAliveGet(`${h.gateway.url}/api/first`);
      expect((await response).res.headers.connection).toBe('keep-alive');
      const connection = await socket;
      const closing = h.gateway.close().then(() => 'closed' as const);
      if (!connection.closed) await new Promise((resolve) => connection.once('close', resolve));
      expect(await Promise.race([closing, stillDraining()])).toBe('closed');
    });

    it('answers a request that arrives on an open connection during the drain with Connection: close, and ends', async () => {
      h = await startHarness(import.meta.dirname, { engine });
      const { port } = new URL(h.gateway.url);
      const client = connect(Number(port), '127.0.0.1');
      client.on('error', () => undefined);
      await new Promise((resolve) => client.once('connect', resolve));
      let reply = '';
      client.setEncoding('utf8');
      client.on('data', (chunk: string) => {
        reply += chunk;
      });
      const ended = new Promise((resolve) => client.once('end', resolve));
      // The request's head is still arriving when the drain starts: its connection is not idle.
      client.write('GET /api/late HTTP/1.1\r\nHost: h\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closing = h.gateway.close().then(() => 'closed' as const);
      await new Promise((resolve) => setTimeout(resolve, 100));
      client.write('\r\n');
      try {
        expect(await Promise.race([closing, stillDraining()])).toBe('closed');
        await ended;
        expect(reply).toMatch(/^HTTP\/1\.1 200 /);
        expect(reply.toLowerCase()).toContain('\r\nconnection: close\r\n');
      } finally {
        client.destroy();
      }
    });

    it('answers /readyz with 503 and draining: true on a connection still open during the drain, while /healthz stays 200', async () => {
      // A load balancer probing on a kept-alive connection must not read a stopping gateway as ready.
      h = await startHarness(import.meta.dirname, { engine });
      const { port } = new URL(h.gateway.url);
      const probes = ['/readyz', '/healthz'].map((path) => {
        const client = connect(Number(port), '127.0.0.1');
        client.on('error', () => undefined);
        let reply = '';
        client.setEncoding('utf8');
        client.on('data', (chunk: string) => {
          reply += chunk;
        });
        const ended = new Promise((resolve) => client.once('end', resolve)).then(() => reply);
        return { client, path, ended };
      });
      await Promise.all(probes.map(({ client }) => new Promise((resolve) => client.once('connect', resolve))));
      // Each probe's head is still arriving when the drain starts: its connection is not idle.
      for (const { client, path } of probes) client.write(`GET ${path} HTTP/1.1\r\nHost: h\r\n`);
      await pause(100);
      const closing = h.gateway.close().then(() => 'closed' as const);
      await pause(100);
      for (const { client } of probes) client.write('\r\n');
      try {
        const [ready, alive] = await Promise.all(probes.map(({ ended }) => ended));
        expect(ready).toMatch(/^HTTP\/1\.1 503 /);
        const body = JSON.parse((ready as string).slice((ready as string).indexOf('\r\n\r\n') + 4));
        expect(body).toMatchObject({ ready: false, draining: true, checks: { keys: { ok: true } } });
        expect(alive).toMatch(/^HTTP\/1\.1 200 /);
        expect(await Promise.race([closing, stillDraining()])).toBe('closed');
      } finally {
        for (const { client } of probes) client.destroy();
      }
    });

    it('ends while a client that sent CONNECT and got its 501 keeps its side of the connection open', async () => {
      // Regression: the 501 half-closed the socket Node had handed over (no parser, no timeouts), so
      // a client that never closed held it, and the drain, for ever.
      h = await startHarness(import.meta.dirname, { engine });
      const { port } = new URL(h.gateway.url);
      const client = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
      client.on('error', () => undefined);
      let reply = '';
      client.setEncoding('utf8');
      client.on('data', (chunk: string) => {
        reply += chunk;
      });
      client.write('CONNECT upstream.example:443 HTTP/1.1\r\nHost: upstream.example:443\r\n\r\n');
      await new Promise((resolve) => client.once('end', resolve));
      expect(reply).toMatch(/^HTTP\/1\.1 501 /);
      try {
        expect(await Promise.race([h.gateway.close().then(() => 'closed' as const), stillDraining()])).toBe('closed');
      } finally {
        client.destroy();
      }
    });
  });
});
