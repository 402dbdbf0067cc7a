import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the echo upstream saw of one request. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly bodyBytes: number;
}

export interface EchoUpstream {
  readonly url: string;
  readonly seen: SeenRequest[];
  /** Every answer waits this long before its headers (a slow upstream). */
  setDelay(ms: number): void;
  /**
   * Holds every answer not yet sent, and those of requests to come, until the returned function is
   * called (a stalled upstream the test releases when it has seen what it waits for, not a timer).
   * With `urlPrefix`, only the answers to requests whose URL starts with it.
   */
  hold(urlPrefix?: string): () => void;
  /** Delayed answers the gateway hung up on before they were sent (it cancelled the request). */
  cancelled(): number;
  /** Bytes of `/public/large` bodies written so far (the upstream honours its own backpressure). */
  largeBytesWritten(): number;
  /** Requests whose body is still arriving: neither complete nor cut off with their connection. */
  receiving(): number;
  /** Connections the gateway holds open to this upstream now. */
  openConnections(): number;
  /** Bytes of `/public/held-upload` bodies read so far (the body is not read for its first `delayMs`). */
  heldUploadBytes(): number;
  close(): Promise<void>;
}

/**
 * A real loopback upstream that answers every request with JSON describing it, so tests assert
 * exactly which headers the gateway forwarded or stripped. `/api/raw-status/<3 digits>` answers
 * that status however odd, written by hand; `/api/raw-reason/<percent-encoded>` a 200 with that reason phrase. `/api/early` answers before reading the request body.
 * `/api/hints-framed` sends two 103s with Content-Length / Transfer-Encoding. `/api/half` sends headers then drops
 * the connection; `/public/large?mib=N` streams N MiB (byte i is `i % 251`), writing only as fast
 * as the gateway takes it. A `delayMs=N` query parameter delays that one answer instead of `setDelay`'s;
 * `sized=1` frames it with Content-Length instead of chunked; `keepAlive=N` sends `Keep-Alive: timeout=N`
 * instead of 5. `/api/status/204` and `/api/status/304`
 * answer those statuses (the 304 with the Content-Length its representation would have);
 * `/api/reset` drops the connection without answering.
 */
/** The byte at offset i of a large body. */
export const largeByte = (i: number): number => i % 251;

const CHUNK = 64 * 1024;
/**
 * The body's bytes from any offset on, as a view: bytes `o % 251` to `o % 251 + CHUNK` are those at
 * offset `o`. Built once; filling every chunk byte by byte cost 0.15 s of CPU per 64 MiB.
 */
const PATTERN = Buffer.from(Array.from({ length: CHUNK + 251 }, (_, i) => largeByte(i)));

function streamLarge(res: ServerResponse, total: number, wrote: (n: number) => void): void {
  let sent = 0;
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const more = () => {
    while (sent < total) {
      const n = Math.min(CHUNK, total - sent);
      const from = sent % 251;
      const chunk = PATTERN.subarray(from, from + n);
      sent += n;
      wrote(n);
      if (!res.write(chunk)) {
        res.once('drain', more);
        return;
      }
    }
    res.end();
  };
  more();
}

/** Content-Length for `body` when the request asked for `sized=1`. */
function sizedAs(url: string, body: string): Record<string, number> {
  return /[?&]sized=1/.test(url) ? { 'content-length': Buffer.byteLength(body) } : {};
}

/** The `Keep-Alive` hint of a JSON answer: the request's own `keepAlive` seconds, else 5. */
function keepAliveOf(url: string): string {
  const own = /[?&]keepAlive=(\d+)/.exec(url);
  return `timeout=${own ? own[1] : 5}`;
}

/** The request's own `delayMs` query parameter, else the upstream-wide delay. */
function delayOf(url: string, fallback: number): number {
  const own = /[?&]delayMs=(\d+)/.exec(url);
  return own ? Number(own[1]) : fallback;
}

export async function startEchoUpstream(): Promise<EchoUpstream> {
  const seen: SeenRequest[] = [];
  let delayMs = 0;
  let largeBytes = 0;
  let receiving = 0;
  let cancelled = 0;
  let heldUpload = 0;
  let held: { readonly urlPrefix: string; readonly gate: Promise<void> } | undefined;
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/public/held-upload')) {
      // Reads nothing for delayMs: the gateway must hold the client back meanwhile, not buffer.
      req.pause();
      req.on('data', (chunk: Buffer) => {
        heldUpload += chunk.length;
      });
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(String(heldUpload)));
      setTimeout(() => req.resume(), delayOf(req.url, 0));
      return;
    }
    if (req.url?.startsWith('/api/reset')) {
      req.socket.destroy();
      return;
    }
    if (req.url?.startsWith('/api/early')) {
      // Answers and closes before reading the request body, as an upstream refusing an upload may.
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end('early');
      return;
    }
    receiving++;
    req.once('close', () => receiving--);
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
    });
    req.on('end', () => {
      const record = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyBytes };
      seen.push(record);
      const answer = () => {
        if (req.url?.startsWith('/public/large')) {
          streamLarge(res, Number(new URL(req.url, 'http://x').searchParams.get('mib') ?? 1) * 2 ** 20, (n) => {
            largeBytes += n;
          });
          return;
        }
        if (req.url?.startsWith('/api/raw-status/')) {
          // A status node:http would refuse to send (e.g. 099), written on the socket by hand.
          const code = req.url.slice('/api/raw-status/'.length);
          res.socket?.end(`HTTP/1.1 ${code} Odd\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`);
          return;
        }
        if (req.url?.startsWith('/api/raw-reason/')) {
          // A 200 with the reason phrase given (percent-encoded in the path), control characters and all.
          const reason = decodeURIComponent(req.url.slice('/api/raw-reason/'.length));
          res.socket?.end(
            Buffer.from(`HTTP/1.1 200 ${reason}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`, 'latin1'),
          );
          return;
        }
        if (req.url?.startsWith('/api/switch')) {
          // An upgrade nobody asked for, the socket then kept open as a switched protocol would.
          res.socket?.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
          return;
        }
        if (req.url?.startsWith('/api/hints-framed')) {
          // Early hints carrying body framing, which no 1xx may have (RFC 9110 §8.6, §6.1).
          res.socket?.write('HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\nContent-Length: 5\r\n\r\n');
          res.socket?.write(
            'HTTP/1.1 103 Early Hints\r\nLink: </b.css>; rel=preload\r\nTransfer-Encoding: chunked\r\n\r\n',
          );
          res.writeHead(200, { 'content-type': 'text/plain' }).end('final');
          return;
        }
        if (req.url?.startsWith('/api/hints')) {
          // Informational replies ahead of the final one: 102 Processing, then 103 Early Hints.
          res.writeProcessing();
          res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style', 'x-hint': 'early' });
          res.writeHead(200, { 'content-type': 'text/plain', ...sizedAs(req.url, 'final') }).end('final');
          return;
        }
        if (req.url?.startsWith('/api/status/204')) {
          res.writeHead(204, { 'x-upstream': 'echo' }).end();
          return;
        }
        if (req.url?.startsWith('/api/status/304')) {
          res.writeHead(304, { etag: '"v1"', 'content-length': '42' }).end();
          return;
        }
        if (req.url?.startsWith('/api/half')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"partial":');
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        const body = JSON.stringify(record);
        res.writeHead(200, {
          'content-type': 'application/json',
          connection: 'keep-alive',
          'keep-alive': keepAliveOf(record.url),
          'x-upstream': 'echo',
          ...sizedAs(record.url, body),
        });
        res.end(body);
      };
      const wait = delayOf(req.url ?? '', delayMs);
      const gate = held && (req.url ?? '').startsWith(held.urlPrefix) ? held.gate : undefined;
      if (wait > 0 || gate) {
        setTimeout(() => (gate ? void gate.then(answer) : answer()), wait);
        res.once('close', () => {
          if (!res.headersSent) cancelled++;
        });
      } else answer();
    });
  });
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    setDelay(ms) {
      delayMs = ms;
    },
    hold(urlPrefix = '') {
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => {
        release = () => {
          held = undefined;
          resolve();
        };
      });
      held = { urlPrefix, gate };
      return release;
    },
    cancelled: () => cancelled,
    largeBytesWritten: () => largeBytes,
    receiving: () => receiving,
    openConnections: () => open.size,
    heldUploadBytes: () => heldUpload,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
