import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { sendShuttingDown } from './shutdown-reply.ts';

/** A connection, with the replies to the requests it carried that have not closed yet, oldest first. */
const REPLIES = Symbol('tokengate.replies');
type Connection = Socket & { [REPLIES]?: ServerResponse[] };
/** The connection a reply was noted on: Node sets `req.socket` to null once it lets go of it. */
const NOTED_ON = Symbol('tokengate.notedOn');
type NotedReply = ServerResponse & { [NOTED_ON]?: Connection };

const openConnections = new WeakMap<Server, Set<Connection>>();
/** HTTPS only: every TCP connection, a TLS handshake not yet done included (see trackConnections). */
const tcpConnections = new WeakMap<Server, Set<Socket>>();

/**
 * How long a connection whose reply had promised keep-alive before the drain stays open once
 * that reply is out: long enough for a request the client sent before it could see the close,
 * short enough that the drain does not wait keepAliveTimeoutMs for a client with nothing to send.
 */
const IDLE_AFTER_REPLY_MS = 500;

/**
 * How long the 503s sent when drainTimeoutMs runs out get to reach their clients before those
 * connections are cut too.
 */
const FINAL_REPLY_MS = 1_000;

/**
 * Keeps the listener's open connections, and each one's replies not yet closed, so a drain can
 * reach the replies still being prepared on them. Node keeps the reply a connection is writing
 * in a private field only; noting each reply here costs a listener call and a shared 'close'
 * listener per request.
 */
export function trackConnections(server: Server): void {
  server.on('request', noteReply);
  const https = server instanceof HttpsServer;
  // HTTPS speaks HTTP on the TLS socket, which 'secureConnection' hands out.
  openConnections.set(server, track(server, https ? 'secureConnection' : 'connection'));
  // Until its handshake is done a TLS connection is in neither that set nor Node's own list
  // (closeAllConnections): only its TCP socket reaches it.
  if (https) tcpConnections.set(server, track(server, 'connection'));
}

function noteReply(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket as Connection;
  const replies = socket[REPLIES];
  if (replies === undefined) socket[REPLIES] = [res];
  else replies.push(res);
  (res as NotedReply)[NOTED_ON] = socket;
  res.on('close', forgetReply);
}

function forgetReply(this: NotedReply): void {
  const replies = this[NOTED_ON]?.[REPLIES];
  const at = replies === undefined ? -1 : replies.indexOf(this);
  if (at >= 0) replies?.splice(at, 1);
}

/**
 * The reply the connection is writing, or will write next: Node writes a connection's replies in
 * the order of its requests, each once the one before has finished (RFC 9112 §9.3.2), so it is
 * the oldest not finished. A finished one stays listed until its 'close', a tick later.
 */
function currentReply(socket: Connection): ServerResponse | undefined {
  for (const reply of socket[REPLIES] ?? []) if (!reply.writableFinished) return reply;
  return undefined;
}

function track(server: Server, event: 'connection' | 'secureConnection'): Set<Connection> {
  const open = new Set<Connection>();
  server.on(event, (socket: Connection) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return open;
}

/**
 * Graceful stop: refuse new connections, close idle keep-alive connections at once, and end
 * every other connection after its current reply. From now on each reply says `Connection: close`
 * (Node writes it, and closes the socket after the reply, when `shouldKeepAlive` is false; the
 * proxied reply honours it in response-passes.ts), so no client sends another request on a
 * connection about to close, and the drain ends with the last in-flight reply. A reply already
 * under way said keep-alive: its connection closes IDLE_AFTER_REPLY_MS after it unless a request
 * arrives, which is answered with `Connection: close`. When `timeoutMs` runs out, a request whose
 * reply has not started is answered 503 `1054` (shutdown-reply.ts) and every other connection cut;
 * FINAL_REPLY_MS later, whatever is left (a 503 not read, a TLS handshake not done).
 */
export async function drain(server: Server, timeoutMs: number): Promise<void> {
  // Runs before the handler, and only while draining: the request path pays nothing otherwise.
  server.prependListener('request', endConnectionAfterReply);
  const open = openConnections.get(server) ?? new Set<Connection>();
  for (const socket of open) closeAfterReply(socket);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  let finalCut: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    stopWaiting(open);
    // A client that does not read its 503 must not hold the drain.
    finalCut = setTimeout(() => cutAll(server), FINAL_REPLY_MS);
    finalCut.unref();
  }, timeoutMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
  clearTimeout(finalCut);
}

const DURING_DRAIN = Symbol('tokengate.duringDrain');
type Marked = IncomingMessage & { [DURING_DRAIN]?: true };

function endConnectionAfterReply(req: IncomingMessage, res: ServerResponse): void {
  res.shouldKeepAlive = false;
  (req as Marked)[DURING_DRAIN] = true;
}

/**
 * Whether the request arrived while its listener drains. Its `/readyz` then answers 503: a load
 * balancer probing on a connection still open must not read a stopping gateway as ready.
 */
export function arrivedDuringDrain(req: IncomingMessage): boolean {
  return (req as Marked)[DURING_DRAIN] === true;
}

/** Makes the connection's current reply its last, or if that reply already promised keep-alive, watches it. */
function closeAfterReply(socket: Connection): void {
  const reply = currentReply(socket);
  if (!reply) return;
  if (!reply.headersSent) reply.shouldKeepAlive = false;
  else if (reply.shouldKeepAlive) reply.once('finish', () => afterKeepAliveReply(socket));
}

/**
 * Runs after Node's own 'finish' listener (added when the reply was made), which has either
 * handed the connection to the reply of a request pipelined behind it (received before the
 * drain, so not told to close) or set the connection's keep-alive timer, cleared by Node when a
 * request arrives; this shortens that timer.
 */
function afterKeepAliveReply(socket: Connection): void {
  if (socket.destroyed) return;
  if (currentReply(socket)) closeAfterReply(socket);
  else socket.setTimeout(IDLE_AFTER_REPLY_MS);
}

/**
 * Everything still open, a TLS handshake too: a client that never finishes one would otherwise
 * hold the drain until Node's handshake timeout (120 s).
 */
function cutAll(server: Server): void {
  server.closeAllConnections();
  for (const socket of tcpConnections.get(server) ?? []) socket.destroy();
}

/** drainTimeoutMs has run out: answer what has not started (503), cut what has. */
function stopWaiting(open: Set<Connection>): void {
  for (const socket of open) {
    const reply = currentReply(socket);
    if (reply && !reply.headersSent && sendShuttingDown(reply)) continue;
    socket.destroy();
  }
}
