import { fetchFailureCause } from '#common';

/** What a bounded GET returns: status, headers and the parsed JSON body. */
export interface FetchedJson {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

export interface BoundedFetchOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Aborts the request early (stop()). */
  readonly signal?: AbortSignal;
}

async function readLimited(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new Error(`response larger than ${maxBytes} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body === null) return Buffer.alloc(0);
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`response larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * GET a JSON document with a timeout covering headers AND body (AbortSignal) and a size bound
 * checked while streaming, so a slow or huge response from the issuer cannot hold or bloat us.
 */
export async function fetchJson(url: string, options: BoundedFetchOptions): Promise<FetchedJson> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const response = await fetch(url, { headers: { accept: 'application/json', ...options.headers }, signal });
  const raw = await readLimited(response, options.maxBytes);
  if (response.status !== 200) return { status: response.status, headers: response.headers, body: undefined };
  return { status: response.status, headers: response.headers, body: JSON.parse(raw.toString('utf8')) as unknown };
}

/**
 * A URL's user part in a message: fetch quotes a URL carrying `user:password@` whole when it
 * refuses it (as it always does), and the reason is logged and shown by /readyz.
 */
const USER_INFO = /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** A short, secret-free reason for logs and status(): a URL's user and password are left out. */
export function reasonOf(error: unknown): string {
  return describe(error).replace(USER_INFO, '$1…@');
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timeout';
    const cause = fetchFailureCause(error);
    return cause === undefined ? error.message : `${error.message} (${cause})`;
  }
  return String(error);
}
