/**
 * One counter's rule, compiled once per configuration: a token bucket of `capacity` tokens that
 * refills `capacity` tokens per window, evenly (never for a monthly quota: only a new month does).
 *
 * Why a token bucket (and not a sliding window): its state is two numbers per counter, it admits
 * a burst of up to the limit and then the steady rate, and its tokens are a quantity a gateway
 * can draw from Redis in chunks (leased-buckets.ts); a sliding-window log can be neither leased
 * nor kept in O(1).
 */
export interface Limit {
  /** The policy's name in the RateLimit headers: `client`, `project` or `quota`. */
  readonly name: 'client' | 'project' | 'quota';
  readonly capacity: number;
  /** The refill period: `capacity` tokens come back per `windowMs` (Infinity: never, a quota). */
  readonly windowMs: number;
  /** Tokens per ms, for waits; refills compute `elapsed * capacity / windowMs`, exact in whole windows. */
  readonly perMs: number;
  /** The RateLimit-Policy item (`"client";q=10;w=1`), built once. */
  readonly policy: string;
}

export function rateLimit(name: 'client' | 'project', requests: number, windowSec: number): Limit {
  return Object.freeze({
    name,
    capacity: requests,
    windowMs: windowSec * 1000,
    perMs: requests / (windowSec * 1000),
    policy: `"${name}";q=${requests};w=${windowSec}`,
  });
}

export function quotaLimit(calls: number, monthSec: number): Limit {
  return Object.freeze({
    name: 'quota',
    capacity: calls,
    windowMs: Number.POSITIVE_INFINITY,
    perMs: 0,
    policy: `"quota";q=${calls};w=${monthSec}`,
  });
}
