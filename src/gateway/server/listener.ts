import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { apiError } from '#common';
import type { GatewayConfig } from '../config/schema.ts';
import { trackConnections } from './drain.ts';
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
  const server = config.tls
    ? createHttpsServer({ ...options, ...readTlsFiles(config.tls) }, handler)
    : createHttpServer(options, handler);
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
  writeAndClose(socket, '501 Not Implemented', JSON.stringify(body));
}

function destroySocket(this: Duplex): void {
  this.destroy();
}

/**
 * Parser-level failures still get the documented JSON shape: 431 for oversized headers (Node
 * would answer a bare 431), 400 for malformed requests, 408 for slow clients.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
    socket.destroy();
    return;
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.end('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    return;
  }
  const oversized = error.code === 'HPE_HEADER_OVERFLOW';
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
