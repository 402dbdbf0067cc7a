import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RevocationEntry } from '#auth';

/**
 * A loopback revocation feed with the issuer's exact shape: `GET /feed?cursor=N&wait=S` with
 * `Authorization: Bearer <token>` → `{cursor, entries}`, holding the request up to `wait` seconds
 * until an entry past the cursor exists.
 */
export interface FeedServer {
  readonly url: string;
  readonly requests: ReadonlyArray<{ cursor: string | null; wait: string | null; authorization: string | undefined }>;
  add(entry: RevocationEntry): void;
  failNext(n: number): void;
  /** Answers the next request with this raw body (HTTP 200). */
  rawNext(body: string): void;
  close(): Promise<void>;
}

export async function startFeedServer(token: string): Promise<FeedServer> {
  const entries: Array<RevocationEntry & { seq: number }> = [];
  const waiting = new Set<() => void>();
  const requests: Array<{ cursor: string | null; wait: string | null; authorization: string | undefined }> = [];
  let failures = 0;
  let raw: string | null = null;

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ cursor: url.searchParams.get('cursor'), wait: url.searchParams.get('wait'), authorization: req.headers.authorization });
    if (failures > 0) {
      failures -= 1;
      return void res.writeHead(500).end('down');
    }
    if (raw !== null) {
      const body = raw;
      raw = null;
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
    if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end();
    const cursor = Number(url.searchParams.get('cursor') ?? 0);
    const answer = (): void => {
      waiting.delete(answer);
      clearTimeout(timer);
      const fresh = entries.filter((e) => e.seq > cursor);
      const next = entries.at(-1)?.seq ?? cursor;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ cursor: Math.max(next, cursor), entries: fresh }));
    };
    const timer = setTimeout(answer, Number(url.searchParams.get('wait') ?? 0) * 1000);
    if (entries.some((e) => e.seq > cursor)) answer();
    else waiting.add(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/feed`,
    requests,
    add(entry) {
      entries.push({ ...entry, seq: entries.length + 1 });
      for (const answer of [...waiting]) answer();
    },
    failNext(n) {
      failures = n;
    },
    rawNext(body) {
      raw = body;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
