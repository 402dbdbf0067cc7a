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
 * Content-Length first, then while streaming, so a lying client cannot exceed it).
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new BodyTooLargeError(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** The client's address as the socket sees it (the gateway's X-Forwarded-For is not trusted here). */
export function remoteAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}
