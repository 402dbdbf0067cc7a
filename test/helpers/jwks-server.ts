import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import type { TestKey } from './tokens.ts';

/**
 * A loopback key-set server on port 0 with the controls tests need: publish/rotate keys, fail
 * the next N requests, delay answers, set Cache-Control, serve a raw body, count requests.
 * Shared by the auth unit tests and the gateway integration tests.
 */
export interface JwksServer {
  /** The key-set URL (`http://127.0.0.1:<port>/.well-known/jwks.json`). */
  readonly url: string;
  /** GET requests received so far. */
  readonly requests: number;
  /** Publishes exactly these keys. */
  setKeys(keys: ReadonlyArray<TestKey | JWK>): void;
  /** Adds a key; with `retire`, removes that kid in the same step. */
  rotate(key: TestKey | JWK, retire?: string): void;
  /** The next `n` requests answer `status` (default 500); status 0 drops the connection. */
  failNext(n: number, status?: number): void;
  /** Every answer waits this long first (a slow issuer); 0 to stop. */
  setDelay(ms: number): void;
  /** `Cache-Control` of successful answers (default `public, max-age=300`); null for none. */
  setCacheControl(value: string | null): void;
  /** Serves this exact body instead of the key set (malformed or oversized documents); null to stop. */
  setRawBody(body: string | null): void;
  close(): Promise<void>;
}

function toJwk(key: TestKey | JWK): JWK {
  return 'publicJwk' in key ? (key as TestKey).publicJwk : (key as JWK);
}

export async function startJwksServer(initial: ReadonlyArray<TestKey | JWK> = []): Promise<JwksServer> {
  let keys = initial.map(toJwk);
  let requests = 0;
  let failures = 0;
  let failStatus = 500;
  let delayMs = 0;
  let cacheControl: string | null = 'public, max-age=300';
  let rawBody: string | null = null;

  const server: Server = createServer((req, res) => {
    requests += 1;
    const answer = (): void => {
      if (failures > 0) {
        failures -= 1;
        if (failStatus === 0) return void req.socket.destroy();
        res.writeHead(failStatus, { 'content-type': 'text/plain' }).end('issuer down');
        return;
      }
      const body = rawBody ?? JSON.stringify({ keys });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (cacheControl !== null) headers['cache-control'] = cacheControl;
      res.writeHead(200, headers).end(body);
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    get requests() {
      return requests;
    },
    setKeys(next) {
      keys = next.map(toJwk);
    },
    rotate(key, retire) {
      keys = [...keys.filter((k) => k.kid !== retire), toJwk(key)];
    },
    failNext(n, status = 500) {
      failures = n;
      failStatus = status;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    setCacheControl(value) {
      cacheControl = value;
    },
    setRawBody(body) {
      rawBody = body;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
