import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The latest reply of a connection, kept on its socket under a private symbol. */
const LATEST = Symbol('tokengate.latestReply');
type Line = Duplex & { [LATEST]?: ServerResponse };

/**
 * Pipelined requests are handled one at a time, in order (as nginx and Envoy do). Node parses
 * requests as they arrive and hands each to the handler at once, its reply queued behind the
 * ones ahead, and goes on parsing after a reply that ends the connection until the socket is
 * gone; so a request behind a reply that ends the connection (a refusal with `Connection:
 * close`, the client's own `close`, HTTP/1.0, the drain, a reply cut short) was authorised and
 * forwarded all the same, against RFC 9112 §9.6. Here a request with a reply still ahead of it
 * waits for that reply's 'close', and a request is handled only if its reply has the socket
 * (Node gives a waiting reply the socket once the replies ahead are done, unless the last of
 * them ended the connection) and the socket still takes a reply. Otherwise it never is: not
 * authorised, not forwarded, not logged. Interim replies then also belong to the request being
 * answered (listener.ts: 100 Continue).
 *
 * A request with no reply ahead (every request of a client that does not pipeline) is handled at
 * once, for a few property reads and one write. Every reply Node makes for a parsed request must
 * pass here, so that the next request knows what it waits for: the listener routes `Expect`
 * requests (`checkContinue`, `checkExpectation`) through it too.
 */
export function inOrder(handle: Listener): Listener {
  return function handleInOrder(req, res) {
    const line = req.socket as Line;
    const ahead = line[LATEST];
    line[LATEST] = res;
    if (res.socket === null && ahead !== undefined) ahead.once('close', () => handleInTurn(handle, req, res));
    else handleInTurn(handle, req, res);
  };
}

function handleInTurn(handle: Listener, req: IncomingMessage, res: ServerResponse): void {
  if (res.socket?.writable) handle(req, res);
}

/**
 * Runs `write`, an answer the gateway writes on the socket itself and that ends the connection (a
 * malformed request, a slow client, CONNECT), where it neither overtakes nor splices into a reply
 * to an earlier request (the client would read it as that request's answer):
 * - nothing else is written on the connection, or every reply is done: at once;
 * - the latest request was whole, so the answer is for what came after it: once its reply (and
 *   with it every reply before) has closed;
 * - the latest request is still arriving, so the answer is for it: at once if its reply has the
 *   socket and has not started (the answer takes its place), else the connection is cut.
 * A connection that can take no more is cut instead.
 */
export function afterReplies(socket: Duplex, write: () => void): void {
  const latest = (socket as Line)[LATEST];
  const pending = latest !== undefined && !latest.writableFinished && !latest.destroyed;
  if (pending && latest.req.complete) latest.once('close', () => afterReplies(socket, write));
  else if (socket.writable && (!pending || (latest.socket !== null && !latest.headersSent))) write();
  else socket.destroy();
}
