import { Agent, type IncomingMessage, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

let h: Harness | undefined;
let agent: Agent | undefined;
afterEach(async () => {
  agent?.destroy();
  // The tests close the gateway themselves; closing it again is a no-op drain.
  await h?.close();
  h = undefined;
});

/** A request on a keep-alive connection, with the connection it went out on. */
function keepAliveGet(url: string): { socket: Promise<Socket>; response: Promise<{ res: IncomingMessage; body: string }> } {
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

/** Far below drainTimeoutMs and the keep-alive timeout (60 s): a drain that waited for either is still going. */
const stillDraining = () => new Promise<'still draining'>((resolve) => setTimeout(() => resolve('still draining'), 10_000).unref());

describe('a graceful drain (close(), SIGTERM)', () => {
  it('answers a request in flight on a keep-alive connection with Connection: close, closes that connection and ends without waiting for drainTimeoutMs', async () => {
    h = await startHarness(import.meta.dirname);
    h.upstream.setDelay(1_500);
    const { socket, response } = keepAliveGet(`${h.gateway.url}/api/slow`);
    const { closing } = await closeWhileInFlight(h);
    const { res } = await response;
    expect(res.statusCode).toBe(200);
    expect(res.headers.connection).toBe('close');
    const connection = await socket;
    if (!connection.closed) await new Promise((resolve) => connection.once('close', resolve));
    expect(await Promise.race([closing, stillDraining()])).toBe('closed');
  });

  it("closes the connection after the gateway's own JSON reply to a request in flight too", async () => {
    h = await startHarness(import.meta.dirname, { env: { RESPONSE_TIMEOUT_MS: '1500' } });
    h.upstream.setDelay(5_000);
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

  it('cuts a request still in flight after drainTimeoutMs instead of waiting for it', async () => {
    h = await startHarness(import.meta.dirname, { env: { DRAIN_TIMEOUT_MS: '300', RESPONSE_TIMEOUT_MS: '60000' } });
    h.upstream.setDelay(30_000);
    const { response } = keepAliveGet(`${h.gateway.url}/api/slow`);
    const outcome = response.then(
      () => 'answered',
      () => 'cut',
    );
    const { closing } = await closeWhileInFlight(h);
    expect(await Promise.race([closing, stillDraining()])).toBe('closed');
    expect(await outcome).toBe('cut');
  });

  it('answers a request that arrives on an open connection during the drain with Connection: close, and ends', async () => {
    h = await startHarness(import.meta.dirname);
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

  it('ends while a client that sent CONNECT and got its 501 keeps its side of the connection open', async () => {
    // Regression: the 501 half-closed the socket Node had handed over (no parser, no timeouts), so
    // a client that never closed held it, and the drain, for ever.
    h = await startHarness(import.meta.dirname);
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
