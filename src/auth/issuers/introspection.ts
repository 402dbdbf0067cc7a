import { LRUCache } from 'lru-cache';
import { type Clock, fetchFailureCause, systemClock } from '#common';
import { type IntrospectionAnswer, readIntrospection } from './introspection-response.ts';

/** RFC 7662 introspection of one external issuer's tokens, as the gateway configures it. */
export interface IntrospectionOptions {
  /** The endpoint; a function when it is learnt from the issuer's metadata (undefined until then). */
  readonly url: string | (() => string | undefined);
  readonly issuer: string;
  readonly audience: string;
  /** Client authentication (RFC 6749 §2.3.1, HTTP Basic). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** An active answer is kept at most this long, and never past the token's `exp`. */
  readonly cacheMaxSec: number;
  /** An inactive answer is kept this long. */
  readonly negativeCacheSec: number;
  /** Calls to the endpoint at once; more wait, up to `maxQueued`, then are refused as unavailable. */
  readonly maxConcurrent: number;
  readonly maxQueued?: number;
  readonly timeoutMs: number;
  readonly clock?: Clock | undefined;
  readonly maxEntries?: number;
}

export type IntrospectionResult = IntrospectionAnswer | { readonly active: 'unavailable'; readonly detail: string };

export interface Introspector {
  /** A cached answer synchronously (no I/O); otherwise the endpoint's, deduplicated per token. */
  introspect(token: string): IntrospectionResult | Promise<IntrospectionResult>;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/** `application/x-www-form-urlencoded` of the id and secret, then Basic (RFC 6749 §2.3.1). */
function basic(id: string, secret: string): string {
  const form = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${form(id)}:${form(secret)}`).toString('base64')}`;
}

/**
 * Answers are cached by token: active ones for at most `cacheMaxSec` and never past `exp`,
 * inactive ones for `negativeCacheSec`; failures (timeout, 5xx, junk) are not cached and answer
 * `unavailable`, which the caller refuses (fail-closed). One call per token is in flight.
 */
export function createIntrospector(options: IntrospectionOptions): Introspector {
  const clock = options.clock ?? systemClock;
  const cache = new LRUCache<string, { readonly answer: IntrospectionAnswer; readonly until: number }>({
    max: options.maxEntries ?? 10_000,
  });
  const inFlight = new Map<string, Promise<IntrospectionResult>>();
  const authorization = basic(options.clientId, options.clientSecret);
  const maxQueued = options.maxQueued ?? 1_000;
  const waiting: Array<() => void> = [];
  let running = 0;

  function urlOf(): string | undefined {
    return typeof options.url === 'string' ? options.url : options.url();
  }

  async function slot(): Promise<boolean> {
    if (running < options.maxConcurrent) {
      running += 1;
      return true;
    }
    if (waiting.length >= maxQueued) return false;
    await new Promise<void>((resolve) => waiting.push(resolve));
    return true;
  }

  function release(): void {
    const next = waiting.shift();
    if (next !== undefined) next();
    else running -= 1;
  }

  function keep(token: string, answer: IntrospectionAnswer): void {
    const now = clock.now();
    let until = now + options.negativeCacheSec * 1000;
    if (answer.active) {
      const exp = answer.claims['exp'];
      const byExp = typeof exp === 'number' ? exp * 1000 : Number.POSITIVE_INFINITY;
      until = Math.min(now + options.cacheMaxSec * 1000, byExp);
    }
    if (until > now) cache.set(token, { answer, until });
  }

  async function ask(token: string): Promise<IntrospectionResult> {
    const url = urlOf();
    if (url === undefined) return { active: 'unavailable', detail: 'introspection endpoint not discovered yet' };
    if (!(await slot())) return { active: 'unavailable', detail: 'introspection queue full' };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: 'error',
      });
      const text = await boundedText(response);
      if (response.status !== 200)
        return { active: 'unavailable', detail: `introspection answered ${response.status}` };
      const answer = readIntrospection(JSON.parse(text) as unknown, options.issuer, options.audience);
      if (answer === undefined) return { active: 'unavailable', detail: 'introspection answer malformed' };
      keep(token, answer);
      return answer;
    } catch (error) {
      return { active: 'unavailable', detail: `introspection failed: ${reason(error)}` };
    } finally {
      release();
    }
  }

  return {
    introspect(token) {
      const cached = cache.get(token);
      if (cached !== undefined && clock.now() < cached.until) return cached.answer;
      const pending = inFlight.get(token);
      if (pending !== undefined) return pending;
      const asked = ask(token).finally(() => inFlight.delete(token));
      inFlight.set(token, asked);
      return asked;
    },
  };
}

async function boundedText(response: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body === null) return '';
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_RESPONSE_BYTES) throw new Error('introspection answer too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'timeout';
  const cause = fetchFailureCause(error);
  return cause === undefined ? error.message : `${error.message} (${cause})`;
}
