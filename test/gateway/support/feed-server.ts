import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RevocationEntry } from '#auth';

export interface FeedServer {
  readonly url: string;
  readonly token: string;
  /** Records a revocation and wakes every held long poll at once. */
  revoke(entry: RevocationEntry): void;
  /** While down, every poll (held ones at once) is answered 503 (the gateway keeps its last set). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/**
 * A loopback revocation feed speaking the issuer's protocol: `GET ?cursor=N&wait=S` with
 * `Authorization: Bearer <token>`; answers `{cursor, entries}` at once when entries past the
 * cursor exist, else holds the request up to `wait` seconds.
 */
export async function startFeedServer(token = 'feed-secret-token'): Promise<FeedServer> {
  const log: RevocationEntry[] = [];
  const waiting = new Set<() => void>();
  let down = false;

  function answer(req: IncomingMessage, res: ServerResponse): void {
    if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end();
    if (down) return void res.writeHead(503).end();
    const params = new URL(req.url ?? '/', 'http://x').searchParams;
    const cursor = Number(params.get('cursor') ?? 0);
    const reply = (): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ cursor: log.length, entries: log.slice(cursor) }));
    if (log.length > cursor) {
      reply();
      return;
    }
    const wake = () => {
      clearTimeout(timer);
      waiting.delete(wake);
      if (res.writableEnded) return;
      if (down) res.writeHead(503).end();
      else reply();
    };
    const timer = setTimeout(wake, Math.min(Number(params.get('wait') ?? 0), 2) * 1000);
    waiting.add(wake);
    res.on('close', () => waiting.delete(wake));
  }

  const server: Server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/internal/revocations`,
    token,
    revoke(entry) {
      log.push(entry);
      for (const wake of [...waiting]) wake();
    },
    setDown(value) {
      down = value;
      for (const wake of [...waiting]) wake();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const wake of [...waiting]) wake();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
