import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RevocationEntry } from '#auth';

export interface FeedRequest {
  readonly cursor: string | null;
  readonly wait: string | null;
  readonly authorization: string | undefined;
  /** The key-set version the gateway last saw; absent until it has seen one. */
  readonly keys?: string;
}

export interface FeedServer {
  readonly url: string;
  readonly token: string;
  /** Every poll received, in order. */
  readonly requests: readonly FeedRequest[];
  /** How many polls the feed holds open now (answered or dropped by the client: no longer held). */
  held(): number;
  /** Records a revocation and wakes every held long poll at once. */
  revoke(entry: RevocationEntry): void;
  /** From now on every answer carries `keys: {version, kids}`; wakes every held long poll at once. */
  announceKeys(version: number, kids: readonly string[]): void;
  /** Answers the next `n` polls 500, before any other check. */
  failNext(n: number): void;
  /** Answers the next poll with this raw body (HTTP 200). */
  rawNext(body: string): void;
  /** While down, every poll (held ones at once) is answered 503 (a gateway keeps its last set). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/**
 * A loopback revocation feed speaking the issuer's protocol: `GET ?cursor=N&wait=S` with
 * `Authorization: Bearer <token>`; answers `{cursor, entries}` at once when entries past the
 * cursor exist (at most `pageSize` of them) or the poll's `keys` version is older than the announced one,
 * else holds the request up to `wait` seconds (at most `maxHoldSec`).
 */
export async function startFeedServer(
  token = 'feed-secret-token',
  maxHoldSec = Number.POSITIVE_INFINITY,
  pageSize = Number.POSITIVE_INFINITY,
): Promise<FeedServer> {
  const log: RevocationEntry[] = [];
  const requests: FeedRequest[] = [];
  const waiting = new Set<() => void>();
  let failures = 0;
  let raw: string | null = null;
  let down = false;
  let keys: { version: number; kids: readonly string[] } | null = null;

  function answer(req: IncomingMessage, res: ServerResponse): void {
    const params = new URL(req.url ?? '/', 'http://x').searchParams;
    const sentKeys = params.get('keys');
    requests.push({
      cursor: params.get('cursor'),
      wait: params.get('wait'),
      authorization: req.headers.authorization,
      ...(sentKeys === null ? {} : { keys: sentKeys }),
    });
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
    if (down) return void res.writeHead(503).end();
    const cursor = Number(params.get('cursor') ?? 0);
    const reply = (): void => {
      // Pages of at most `pageSize` entries, as the issuer answers a long backlog.
      const entries = log.slice(cursor, cursor + pageSize);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ cursor: Math.max(cursor + entries.length, cursor), entries, ...(keys ? { keys } : {}) }));
    };
    // As the issuer: at once when entries are past the cursor, or the gateway saw an older key set.
    if (log.length > cursor || (keys !== null && sentKeys !== null && Number(sentKeys) < keys.version))
      return void reply();
    const wake = (): void => {
      clearTimeout(timer);
      waiting.delete(wake);
      if (res.writableEnded) return;
      if (down) res.writeHead(503).end();
      else reply();
    };
    const timer = setTimeout(wake, Math.min(Number(params.get('wait') ?? 0), maxHoldSec) * 1000);
    waiting.add(wake);
    res.on('close', () => waiting.delete(wake));
  }

  const wakeAll = (): void => {
    for (const wake of [...waiting]) wake();
  };
  const server: Server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/internal/revocations`,
    token,
    requests,
    held: () => waiting.size,
    revoke(entry) {
      log.push(entry);
      wakeAll();
    },
    announceKeys(version, kids) {
      keys = { version, kids: [...kids] };
      wakeAll();
    },
    failNext(n) {
      failures = n;
    },
    rawNext(body) {
      raw = body;
    },
    setDown(value) {
      down = value;
      wakeAll();
    },
    close: () =>
      new Promise<void>((resolve) => {
        wakeAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
