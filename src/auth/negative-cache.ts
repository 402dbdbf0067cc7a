import { LRUCache } from 'lru-cache';
import type { Clock } from '#common';
import type { AuthFailure } from './types.ts';

/** `fp` is the token's fingerprint (fingerprint.ts), computed once per request by the verifier. */
export interface NegativeCache {
  get(raw: string, fp: number): AuthFailure | undefined;
  set(raw: string, fp: number, failure: AuthFailure): void;
}

/**
 * Remembers tokens that failed for good (format, signature, claims, expiry) for a short TTL so
 * replaying a bad token costs a map lookup instead of a signature check. Failures that can heal
 * are never stored: unknown kid and keys unavailable (the next key-set refresh), and iat or nbf
 * ahead of our clock (time).
 * Indexed by fingerprint like the token cache (token-cache.ts): a hit needs the whole token equal.
 */
export function createNegativeCache(clock: Clock, maxEntries: number, ttlSec: number, maxBytes: number): NegativeCache {
  if (maxEntries === 0 || ttlSec === 0) return { get: () => undefined, set: () => {} };
  const cache = new LRUCache<number, { readonly raw: string; readonly failure: AuthFailure }>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (slot) => slot.raw.length + 200,
    ttl: ttlSec * 1000,
    perf: clock,
    // Read the injected clock on every check (the default caches "now" for 1 ms of real time).
    ttlResolution: 0,
  });
  return {
    get(raw, fp) {
      const slot = cache.get(fp);
      return slot !== undefined && slot.raw === raw ? slot.failure : undefined;
    },
    set: (raw, fp, failure) => void cache.set(fp, { raw, failure }),
  };
}
