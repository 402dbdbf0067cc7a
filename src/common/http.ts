import type { IncomingMessage, ServerResponse } from 'node:http';

/** Writes a JSON body with an exact Content-Length. Extra headers are merged in. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string | number | readonly string[]>> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  readonly limit: number;
  constructor(limit: number) {
    super(`request body exceeds ${limit} bytes`);
    this.limit = limit;
  }
}

/**
 * Reads a request body into memory, refusing more than `limit` bytes (checked against
 * Content-Length first, then while streaming, so a lying client cannot exceed it). Past the
 * limit the rest of the body is read and discarded, not cut off: destroying the request would
 * reset the connection under the 413 the caller is about to send (a chunked upload got
 * ECONNRESET instead of its answer). The upstream's servers bound that reading (upstream/http-server.ts:
 * the connection closes a grace period after the answer).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new BodyTooLargeError(limit));
  }
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(new Error('request closed before its body was complete'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: Error | null) => {
      req.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      settle(new BodyTooLargeError(limit));
      req.resume();
    };
    const onEnd = () => settle(null);
    const onClose = () => settle(new Error('request closed before its body was complete'));
    req.on('data', onData).on('end', onEnd).on('error', settle).on('close', onClose);
  });
}

/** The client's address as the socket sees it (the gateway's X-Forwarded-For is not trusted here). */
export function remoteAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}
