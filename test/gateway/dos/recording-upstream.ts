import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the upstream's (strict) HTTP parser delivered it. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** Header lines as received, names in their case, duplicates kept. */
  readonly rawHeaders: readonly string[];
  bodyBytes: number;
  complete: boolean;
}

export interface RecordingUpstream {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** What the upstream's parser refused: anything malformed the gateway sent on. */
  readonly parseErrors: string[];
  /** Requests whose body is still arriving. */
  inProgress(): number;
  close(): Promise<void>;
}

/**
 * An upstream that records every request it is sent, and every byte sequence its parser refuses
 * (Node's default parser is strict), and answers 200 with `x-upstream: recorder`.
 */
export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const requests: RecordedRequest[] = [];
  const parseErrors: string[] = [];
  let inProgress = 0;
  const server: Server = createServer((req, res) => {
    const record: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      bodyBytes: 0,
      complete: false,
    };
    requests.push(record);
    inProgress++;
    req.once('close', () => inProgress--);
    req.on('data', (chunk: Buffer) => {
      record.bodyBytes += chunk.length;
    });
    req.on('end', () => {
      record.complete = true;
      const body = JSON.stringify({ recorded: requests.length });
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'recorder' }).end(body);
    });
  });
  server.on('clientError', (error: Error & { code?: string }, socket) => {
    parseErrors.push(error.code ?? error.message);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    parseErrors,
    inProgress: () => inProgress,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
