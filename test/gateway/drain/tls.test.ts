import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeSelfSignedCert } from '#test/self-signed-cert.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'tg-drain-tls-'));
const cert = join(dir, '127.0.0.1.cert.pem');
const key = join(dir, '127.0.0.1.key.pem');

let h: Harness | undefined;
beforeAll(() => {
  makeSelfSignedCert(dir);
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const startTlsGateway = () =>
  startHarness(import.meta.dirname, {
    file: join(import.meta.dirname, 'tls.yaml'),
    env: { TLS_CERT: cert, TLS_KEY: key },
  });

/** Far beyond drainTimeoutMs (300 ms here), far below the TLS handshake timeout (120 s). */
const stillDraining = () =>
  new Promise<'still draining'>((resolve) => setTimeout(() => resolve('still draining'), 10_000).unref());

describe('a graceful drain of the TLS listener', () => {
  it('answers a request still waiting for the upstream when drainTimeoutMs runs out with 503 1054', async () => {
    h = await startTlsGateway();
    h.upstream.setDelay(30_000);
    const { port } = new URL(h.gateway.url);
    const response = new Promise<{ status: number; connection: string | undefined; body: string }>(
      (resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/api/slow', ca: readFileSync(cert), agent: false },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              body += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    await vi.waitFor(() => expect(h?.upstream.seen.length).toBe(1), { timeout: 10_000 });
    expect(await Promise.race([h.gateway.close().then(() => 'closed' as const), stillDraining()])).toBe('closed');
    const { status, connection, body } = await response;
    expect({ status, connection }).toEqual({ status: 503, connection: 'close' });
    expect(JSON.parse(body)).toEqual({ message: 'Gateway is shutting down', error_code: '1054', success: false });
  });

  it('cuts a connection still in its TLS handshake when drainTimeoutMs runs out, instead of waiting for the handshake timeout', async () => {
    // Regression: such a connection is in no list of HTTP connections, so nothing cut it, and the
    // drain (and the exit) waited for Node's handshake timeout, 120 s.
    h = await startTlsGateway();
    const { port } = new URL(h.gateway.url);
    const client = connect(Number(port), '127.0.0.1');
    client.on('error', () => undefined);
    const closed = new Promise((resolve) => client.once('close', resolve));
    await new Promise((resolve) => client.once('connect', resolve));
    try {
      expect(await Promise.race([h.gateway.close().then(() => 'closed' as const), stillDraining()])).toBe('closed');
      await closed;
    } finally {
      client.destroy();
    }
  });
});
