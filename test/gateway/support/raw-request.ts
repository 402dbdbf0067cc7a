import { type IncomingHttpHeaders, type OutgoingHttpHeaders, request } from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A request exactly as written: fetch() would normalise the path (`/a/%2e%2e/b` → `/b`) and
 * refuses hop-by-hop headers such as `Connection`, which is what these tests need to send.
 */
export function rawRequest(base: string, path: string, options: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = request({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
