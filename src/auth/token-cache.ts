import type { KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '#common';
import type { VerifiedToken } from './types.ts';

/** A token whose signature and claims passed, with the key that verified it. */
export interface CachedToken {
  readonly token: VerifiedToken;
  readonly kid: string;
  /** A hit is honoured only while the key set still maps kid to this very key. */
  readonly key: KeyObject;
}

// Rough per-entry cost beyond the key string (tokens are ASCII: V8 stores one byte per char):
// claims object, scopes array, LRU bookkeeping (measured: ~1.1 KB of heap per 600-char token).
const ENTRY_OVERHEAD_BYTES = 500;

export interface TokenCache {
  get(raw: string): CachedToken | undefined;
  /** Keeps the entry no later than `untilMs` (the token's exp plus tolerance). */
  set(raw: string, entry: CachedToken, untilMs: number): void;
}

/**
 * Verified-token cache keyed by the token string itself: V8 hashes a string once and compares
 * by content, which costs less than a SHA-256 of every token (bench/auth.bench.ts measures it).
 * Revocation is never keyed on it (that is by jti), so twin encodings of one token only cost
 * a second verification, never a bypass. Bounded by entries and by bytes; TTL never past exp.
 */
export function createTokenCache(clock: Clock, maxEntries: number, maxBytes: number): TokenCache {
  if (maxEntries === 0) return { get: () => undefined, set: () => {} };
  const cache = new LRUCache<string, CachedToken>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (_value, raw) => raw.length + ENTRY_OVERHEAD_BYTES,
    ttl: 1,
    perf: clock,
    // Read the injected clock on every check (the default caches "now" for 1 ms of real time).
    ttlResolution: 0,
  });
  return {
    get: (raw) => cache.get(raw),
    set(raw, entry, untilMs) {
      const ttl = untilMs - clock.now();
      if (ttl > 0) cache.set(raw, entry, { ttl });
    },
  };
}
