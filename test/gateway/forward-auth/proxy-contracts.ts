import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { SeenRequest } from '../support/echo-upstream.ts';
import type { Harness } from '../support/harness.ts';

/** What a client sends through a proxy, and what it gets back. */
export interface ClientCall {
  readonly method: string;
  /** Path and query, as the client sent them. */
  readonly path: string;
  /** The Host the client addressed. */
  readonly host: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The decision's headers the proxy is configured to copy besides the identity header (Traefik
   * `authResponseHeaders`, Envoy `allowed_upstream_headers`), lower-case: the claim headers.
   */
  readonly copied?: readonly string[];
}

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One plain HTTP/1.1 exchange, the Host header as given (fetch would not let a test choose it). */
export function send(url: string, method: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const IDENTITY = 'x-tokengate-identity';

/**
 * Traefik's `forwardAuth`, as doc.traefik.io documents it: a GET to `address` with the client's
 * headers and `X-Forwarded-Method`, `-Proto`, `-Host`, `-Uri` and `-For`; a 2XX grants access and
 * the original request is performed with the `authResponseHeaders` copied over (replacing any the
 * client sent); otherwise the authentication server's response is returned.
 */
export async function viaTraefik(address: string, upstream: string, call: ClientCall): Promise<Answer> {
  const auth = await send(address, 'GET', {
    ...call.headers,
    host: new URL(address).host,
    'x-forwarded-method': call.method,
    'x-forwarded-proto': 'https',
    'x-forwarded-host': call.host,
    'x-forwarded-uri': call.path,
    'x-forwarded-for': '203.0.113.9',
  });
  if (auth.status < 200 || auth.status > 299) return auth;
  return send(upstream + call.path, call.method, withIdentity(call, auth));
}

/**
 * Envoy's `ext_authz` HTTP service, as its API reference documents it: the original method, the
 * path appended to `path_prefix`, and the headers always included (Host, Method, Path,
 * Content-Length, Authorization) plus `allowed_headers` (here `dpop` and `x-forwarded-proto`);
 * 200 allows the request, with `allowed_upstream_headers` copied onto it; anything else is
 * answered to the client with the service's status, body and headers.
 */
export async function viaEnvoy(service: string, prefix: string, upstream: string, call: ClientCall): Promise<Answer> {
  const passed: Record<string, string> = { host: call.host, 'content-length': '0', 'x-forwarded-proto': 'https' };
  for (const name of ['authorization', 'dpop']) {
    const value = call.headers?.[name];
    if (value !== undefined) passed[name] = value;
  }
  const auth = await send(service + prefix + call.path, call.method, passed);
  if (auth.status !== 200) return auth;
  return send(upstream + call.path, call.method, withIdentity(call, auth));
}

/** The client's headers with the decision's identity header (and those in `copied`) in place of any it sent. */
function withIdentity(call: ClientCall, auth: Answer): Record<string, string> {
  const headers: Record<string, string> = { ...call.headers, host: call.host };
  for (const name of [IDENTITY, ...(call.copied ?? [])]) {
    delete headers[name];
    const value = auth.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/** What the upstream served for clients: the gateway's own calls to it (`/internal/…` polls) left out. */
export function clientRequests(h: Harness): SeenRequest[] {
  return h.upstream.seen.filter((seen) => !seen.url.startsWith('/internal/'));
}

export const reached = (h: Harness): number => clientRequests(h).length;
export const lastReached = (h: Harness): SeenRequest | undefined => clientRequests(h).at(-1);
