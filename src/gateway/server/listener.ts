import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { apiError } from '#common';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { trackConnections } from './drain.ts';
import { afterReplies, inOrder } from './in-order.ts';
import { readTlsFiles } from './tls-files.ts';

/**
 * The public listener: HTTPS when `tls` is configured, with the slow-client and size limits
 * applied by Node's parser (headers over `maxHeaderSize` never reach the handler).
 */
export function createListener(config: GatewayConfig, handler: RequestListener): Server {
  const { limits } = config;
  const options = {
    maxHeaderSize: limits.maxHeaderSize,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // An HTTP/1.1 request without Host is refused by admit() in the documented JSON shape
    // (request-target.ts) instead of by Node with a bare 400.
    requireHostHeader: false,
    // Node enforces the two timeouts above only when it sweeps connections (every 30 s by
    // default); sweep often enough that a slow client is cut near its deadline.
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 2))),
  };
  const handleInOrder = inOrder(handler);
  const server = config.tls
    ? createHttpsServer({ ...options, ...readTlsFiles(config.tls) }, handleInOrder)
    : createHttpServer(options, handleInOrder);
  // Node would write 100 Continue as it parses the request, into a reply that may still be queued
  // behind others; it goes out when the request's turn comes (in-order.ts), just before the request
  // is handed on as any other. An Expect other than 100-continue is refused (417) in turn too.
  server.on(
    'checkContinue',
    inOrder((req, res) => {
      res.writeContinue();
      server.emit('request', req, res);
    }),
  );
  server.on('checkExpectation', inOrder(refuseExpectation));
  server.on('clientError', answerClientError);
  server.on('connect', refuseConnect);
  trackConnections(server);
  return server;
}

/**
 * CONNECT asks for a tunnel, which this gateway does not offer. Without a listener Node just
 * drops the socket, leaving the client no status line: answer 501 (RFC 9110 §9.1) in our shape.
 * Node hands the socket over without its own error listener: a client that resets the
 * connection would otherwise raise an unhandled 'error' and end the process. Nor does anything
 * read it, time it out or reach it from closeAllConnections any more: ended only, a client that
 * never closes its side would hold it, and a drain, for ever. What the client sends is read and
 * dropped, and the socket is closed once the reply is out.
 */
function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', destroySocket);
  socket.once('finish', destroySocket);
  socket.resume();
  const { body } = apiError('method_not_allowed', { message: 'CONNECT is not supported' });
  afterReplies(socket, () => writeAndClose(socket, '501 Not Implemented', JSON.stringify(body)));
}

/** An `Expect` other than 100-continue: 417 (RFC 9110 §10.1.1), as Node answers it, but in turn. */
function refuseExpectation(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(417, { 'content-length': 0 });
  res.end();
}

function destroySocket(this: Duplex): void {
  this.destroy();
}

const ANSWERED = Symbol('tokengate.clientErrorAnswered');

/**
 * Parser-level failures still get the documented JSON shape: 431 for oversized headers (Node
 * would answer a bare 431), 400 for malformed requests, 408 for slow clients. The answer goes out
 * after the replies to the requests before it (in-order.ts) and ends the connection; the parser
 * reads nothing more. Data after a request that closed the connection (its `Connection: close`,
 * HTTP/1.0) is not a request at all: it gets no answer, the connection just ends after that
 * request's reply. Node reports every later chunk again: only the first report counts.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const marked = socket as Duplex & { [ANSWERED]?: true };
  if (marked[ANSWERED]) return;
  marked[ANSWERED] = true;
  afterReplies(socket, () => writeClientError(error.code, socket));
}

function writeClientError(code: string | undefined, socket: Duplex): void {
  if (code === 'HPE_CLOSED_CONNECTION') {
    socket.destroy();
    return;
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.end('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    return;
  }
  const oversized = code === 'HPE_HEADER_OVERFLOW';
  const { body } = oversized
    ? apiError('payload_too_large')
    : apiError('validation_failed', { message: 'Malformed HTTP request' });
  writeAndClose(socket, oversized ? '431 Request Header Fields Too Large' : '400 Bad Request', JSON.stringify(body));
}

function writeAndClose(socket: Duplex, status: string, payload: string): void {
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
  );
}
