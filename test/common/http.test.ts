import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBody, sendJson } from '#common';

const LIMIT = 16 * 1024;

/**
 * A real server answering 413 past LIMIT and the body's length otherwise; what readBody rejected
 * with is kept. `reading` resolves once a request's head has arrived and its body is being read.
 */
async function startServer(): Promise<{ url: string; server: Server; failures: unknown[]; reading: Promise<void> }> {
  const failures: unknown[] = [];
  const { promise: reading, resolve: nowReading } = Promise.withResolvers<void>();
  const server = createServer((req, res) => {
    nowReading();
    readBody(req, LIMIT).then(
      (body) => sendJson(res, 200, { length: body.length }),
      (error: unknown) => {
        failures.push(error);
        if (error instanceof BodyTooLargeError) sendJson(res, 413, { error: 'too large' });
        else res.destroy();
      },
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, failures, reading };
}

/** A chunked body (no Content-Length) of `chunks` pieces of 40 KB. */
const chunked = (chunks: number) =>
  Readable.from(
    (async function* () {
      for (let i = 0; i < chunks; i++) yield Buffer.alloc(40_000, 'x');
    })(),
  );

describe('readBody', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    server?.close();
  });

  it('answers an oversized chunked upload with the 413, never a connection reset under it', async () => {
    const started = await startServer();
    server = started.server;
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(started.url, { method: 'POST', body: chunked(10), duplex: 'half' } as RequestInit).then(
        async (r) => `${r.status} ${await r.text()}`,
        (error: Error) => String((error.cause as NodeJS.ErrnoException | undefined)?.code ?? error.message),
      );
      outcomes.push(res);
    }
    expect(new Set(outcomes)).toEqual(new Set(['413 {"error":"too large"}']));
  });

  it('reads a body within the limit whole, chunked or with a Content-Length', async () => {
    const started = await startServer();
    server = started.server;
    const small = await fetch(started.url, { method: 'POST', body: 'x'.repeat(LIMIT) });
    expect(await small.json()).toEqual({ length: LIMIT });
    const empty = await fetch(started.url, { method: 'POST' });
    expect(await empty.json()).toEqual({ length: 0 });
    const declared = await fetch(started.url, { method: 'POST', body: 'x'.repeat(LIMIT + 1) });
    expect(declared.status).toBe(413);
  });

  it('rejects, rather than waiting for ever, when the client goes away in the middle of the body', async () => {
    const started = await startServer();
    server = started.server;
    const { port } = new URL(started.url);
    const req = request({ host: '127.0.0.1', port, method: 'POST', headers: { 'content-length': '1000' } });
    req.on('error', () => undefined);
    req.write('x'.repeat(100));
    await started.reading;
    req.destroy();
    await expect.poll(() => started.failures.length).toBe(1);
    expect(started.failures[0]).not.toBeInstanceOf(BodyTooLargeError);
  });
});
