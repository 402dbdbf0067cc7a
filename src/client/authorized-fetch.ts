import { readLimited } from './read-limited.ts';
import type { TokenCache } from './token-cache.ts';
import { requireSecureUrl } from './transport-security.ts';

/**
 * The two answers a fresh token cures (spec: Errors): 1030 "Token expired at <timestamp>", and
 * 1024 with the message "OAuth key has been revoked" (an operator revoked that one token; when
 * the client itself is disabled, the token request fails instead). Other 1024s (a malformed or
 * untrusted token) and 1026 (scope) would fail again with any token from the same client.
 */
const TOKEN_EXPIRED_CODE = '1030';
const INVALID_TOKEN_CODE = '1024';
const REVOKED_MESSAGE = 'OAuth key has been revoked';
/** Error bodies are small; a larger 401 body is not ours and is read no further. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;
/** And sent whole with their head; one still arriving after this is not ours either. */
const MAX_ERROR_BODY_WAIT_MS = 1_000;

/**
 * fetch with the bearer token added. On a 1030 answer (the server thinks the token expired,
 * e.g. clock skew) or a revoked-token 1024 it drops that token and retries ONCE with a fresh
 * one; any other answer, including a second such answer, is returned as is.
 */
export async function authorizedFetch(
  cache: TokenCache,
  fetchImpl: typeof fetch,
  allowInsecureHttp: boolean,
  input: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  requireSecureUrl(parseRequestUrl(input), 'request URL', allowInsecureHttp);
  const signal = init.signal ?? undefined;
  const token = await tokenFor(cache, signal);
  const first = await send(fetchImpl, input, init, token);
  if (!replayable(init) || !(await needsFreshToken(first))) return first;
  await first.body?.cancel();
  cache.invalidateIf(token);
  return send(fetchImpl, input, init, await tokenFor(cache, signal));
}

/**
 * The URL parser's error keeps the whole string in `input` (which loggers print): for one with
 * user:password@ that is the password. This error quotes nothing.
 */
function parseRequestUrl(input: string | URL): URL {
  if (input instanceof URL) return input;
  if (!URL.canParse(input)) throw new TypeError('request URL must be an absolute http(s) URL');
  return new URL(input);
}

/**
 * The token, or the caller's abort reason as soon as its signal fires, as fetch itself would
 * reject. The token request goes on for the other callers sharing it (and fills the cache).
 */
function tokenFor(cache: TokenCache, signal: AbortSignal | undefined): Promise<string> {
  if (!signal) return cache.get();
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<string>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    cache
      .get()
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function send(fetchImpl: typeof fetch, input: string | URL, init: RequestInit, token: string): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetchImpl(input, { ...init, headers });
}

/**
 * Only a body held whole in memory can be sent again. A stream, async iterable (a Node
 * Readable, a generator) or iterable is consumed by the first attempt: resending it sent an
 * empty body, or threw. Those answers are returned as they are, 1030 included.
 */
function replayable(init: RequestInit): boolean {
  const body: unknown = init.body;
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    body instanceof Blob ||
    body instanceof FormData ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

async function needsFreshToken(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  if (!response.headers.get('content-type')?.includes('json')) return false;
  try {
    // A copy, read only up to the bounds: the caller still gets the whole body, and a huge,
    // endless or stalled 401 neither fills memory nor holds the answer back.
    const text = await readLimited(response.clone(), MAX_ERROR_BODY_BYTES, AbortSignal.timeout(MAX_ERROR_BODY_WAIT_MS));
    if (text === undefined) return false;
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null) return false;
    const { error_code: code, message } = body as { error_code?: unknown; message?: unknown };
    return code === TOKEN_EXPIRED_CODE || (code === INVALID_TOKEN_CODE && message === REVOKED_MESSAGE);
  } catch {
    return false;
  }
}
