import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Bounds every server of the upstream applies to what a client may send (and how slowly). */
export const SERVER_LIMITS = {
  maxHeaderSize: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  /**
   * Once the answer is sent, how long the rest of a request body nobody reads (an upload past its
   * limit answered 413, a request refused before its body) is still read and discarded before the
   * connection is closed: time for the client to read its answer, which closing at once would reset.
   */
  unreadBodyGraceMs: 2_000,
} as const;

/** How long a graceful close waits for in-flight requests before cutting connections. */
const DRAIN_MS = 5_000;
const IDLE_SWEEP_MS = 25;

export function createBoundedServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const server = createServer(
    {
      maxHeaderSize: SERVER_LIMITS.maxHeaderSize,
      headersTimeout: SERVER_LIMITS.headersTimeoutMs,
      requestTimeout: SERVER_LIMITS.requestTimeoutMs,
    },
    (req, res) => {
      // `on`, not `once`: a response finishes once, and no wrapper or closure is made per request.
      res.on('finish', closeIfBodyUnread);
      handler(req, res);
    },
  );
  server.keepAliveTimeout = SERVER_LIMITS.keepAliveTimeoutMs;
  return server;
}

/**
 * An endless (or huge) upload answered before its end would otherwise be read until
 * requestTimeout, which Node checks only every 30 s: up to a minute of a core and the line rate
 * per connection, for any client, the admin token or not. Past the grace the connection goes.
 */
function closeIfBodyUnread(this: ServerResponse): void {
  const req = this.req;
  if (req.complete) return;
  const timer = setTimeout(() => req.socket.destroy(), SERVER_LIMITS.unreadBodyGraceMs);
  timer.unref();
  const done = () => {
    clearTimeout(timer);
    req.off('end', done);
    req.socket.off('close', done);
  };
  req.once('end', done);
  req.socket.once('close', done);
}

/** Listens and returns the base URL with the port actually bound (port 0 in tests). */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}

/**
 * Stops accepting, lets in-flight requests finish (bounded), then closes what is left. A
 * keep-alive connection whose last response ends during the drain is closed as soon as it is
 * idle (polled), rather than left to the client's keep-alive timer.
 */
export async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const idle = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const timer = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
  timer.unref();
  await closed;
  clearInterval(idle);
  clearTimeout(timer);
}
