import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';

/** A connection, with the reply it is writing in Node's own field (which closeIdleConnections reads too). */
type Connection = Socket & { _httpMessage?: ServerResponse | null };

const openConnections = new WeakMap<Server, Set<Connection>>();

/**
 * Keeps the listener's open connections so a drain can reach the replies still being prepared
 * on them. Kept per connection, not per request: nothing is added to a request's path.
 */
export function trackConnections(server: Server): void {
  const open = new Set<Connection>();
  openConnections.set(server, open);
  // HTTPS speaks HTTP on the TLS socket, which 'secureConnection' hands out.
  server.on(server instanceof HttpsServer ? 'secureConnection' : 'connection', (socket: Connection) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/**
 * Graceful stop: refuse new connections, close idle keep-alive connections at once, and end
 * every other connection after its current reply. From now on each reply says `Connection: close`
 * (Node writes it, and closes the socket after the reply, when `shouldKeepAlive` is false; the
 * proxied reply honours it in response-passes.ts), so no client sends another request on a
 * connection about to close, and the drain ends with the last in-flight reply. A reply already
 * under way said keep-alive: its connection closes at the client's next request or when idle
 * for keepAliveTimeoutMs. Whatever is still open after `timeoutMs` is cut.
 */
export async function drain(server: Server, timeoutMs: number): Promise<void> {
  // Runs before the handler, and only while draining: the request path pays nothing otherwise.
  server.prependListener('request', endConnectionAfterReply);
  for (const socket of openConnections.get(server) ?? []) {
    const reply = socket._httpMessage;
    if (reply && !reply.headersSent) reply.shouldKeepAlive = false;
  }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}

function endConnectionAfterReply(_req: IncomingMessage, res: ServerResponse): void {
  res.shouldKeepAlive = false;
}
