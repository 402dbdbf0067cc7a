import type { Dpop } from './dpop.ts';
import { wireMethod } from './dpop-proof.ts';
import { readLimited } from './read-limited.ts';
import type { HeldToken, TokenCache } from './token-cache.ts';
import { requireSecureUrl } from './transport-security.ts';
import { asksForDpopNonce } from './www-authenticate.ts';

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

/** What the authorized fetch needs of the client's options. */
export interface FetchContext {
  readonly cache: TokenCache;
  readonly fetch: typeof fetch;
  readonly allowInsecureHttp: boolean;
  readonly dpop: Dpop | undefined;
}

/**
 * fetch with the token added: `Authorization: Bearer`, or for a DPoP-bound token `Authorization:
 * DPoP` with a fresh proof. On a 1030 answer (the server thinks the token expired, e.g. clock
 * skew) or a revoked-token 1024 it drops that token and retries ONCE with a fresh one; any other
 * answer, including a second such answer, is returned as is.
 */
export async function authorizedFetch(
  context: FetchContext,
  input: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const url = parseRequestUrl(input);
  requireSecureUrl(url, 'request URL', context.allowInsecureHttp);
  const signal = init.signal ?? undefined;
  const held = await tokenFor(context.cache, signal);
  const first = await sendWithNonce(context, input, url, init, held);
  if (!replayable(init) || !(await needsFreshToken(first))) return first;
  await first.body?.cancel();
  context.cache.invalidateIf(held.token);
  return sendWithNonce(context, input, url, init, await tokenFor(context.cache, signal));
}

/**
 * RFC 9449 §9: a 401 whose DPoP challenge says `use_dpop_nonce` and that gives a `DPoP-Nonce` is
 * sent once more, with a proof carrying that nonce (now the origin's latest). A nonce is kept for
 * the origin that answered, which after a redirect is not the one asked.
 */
async function sendWithNonce(
  context: FetchContext,
  input: string | URL,
  url: URL,
  init: RequestInit,
  held: HeldToken,
): Promise<Response> {
  const response = await send(context, input, url, init, held);
  const answeredBy = URL.canParse(response.url) ? new URL(response.url) : url;
  const nonce = context.dpop?.learn(answeredBy, response.headers);
  if (held.type !== 'DPoP' || nonce === undefined || answeredBy.origin !== url.origin) return response;
  if (!replayable(init)) return response;
  if (response.status !== 401 || !asksForDpopNonce(response.headers.get('www-authenticate'))) return response;
  await response.body?.cancel();
  return send(context, input, url, init, held);
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
function tokenFor(cache: TokenCache, signal: AbortSignal | undefined): Promise<HeldToken> {
  if (!signal) return cache.get();
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<HeldToken>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    cache
      .get()
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function send(
  context: FetchContext,
  input: string | URL,
  url: URL,
  init: RequestInit,
  held: HeldToken,
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (held.type === 'DPoP' && context.dpop) {
    headers.set('authorization', `DPoP ${held.token}`);
    headers.set('dpop', await context.dpop.proof(wireMethod(init.method), url, held.token));
  } else headers.set('authorization', `Bearer ${held.token}`);
  return context.fetch(input, { ...init, headers });
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
