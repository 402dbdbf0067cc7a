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

/**
 * An entry's heap bytes, estimated from its token's length: the token string (one byte per ASCII
 * char) plus the claims object parsed from its payload (every claim is kept for claim rules and
 * headers), which grows with the payload. Measured with 20,000 entries and `--expose-gc`: 1,696 B
 * for a 753-char token, 3,496 B for 1,593 chars (20 more claims), 10,744 B for 5,006 chars (100).
 */
export function entryBytes(rawLength: number): number {
  return Math.ceil(rawLength * 2.15) + 100;
}

/** `fp` is the token's fingerprint (fingerprint.ts), computed once per request by the verifier. */
export interface TokenCache {
  get(raw: string, fp: number): CachedToken | undefined;
  /** Keeps the entry no later than `untilMs` (the token's exp plus tolerance). */
  set(raw: string, fp: number, entry: CachedToken, untilMs: number): void;
}

interface Slot {
  readonly raw: string;
  readonly entry: CachedToken;
}

/**
 * Verified-token cache indexed by the token's fingerprint (fingerprint.ts), a small integer:
 * V8 would otherwise hash the whole ~800-char token string on every request. A slot keeps its
 * token and a hit needs the whole string to be equal, so colliding tokens share a slot (the
 * later one wins) and a collision is a miss, never another token's claims. Revocation is never
 * keyed on it (that is by jti), so twin encodings of one token only cost a second
 * verification, never a bypass. Bounded by entries and by bytes; TTL never past exp.
 */
export function createTokenCache(clock: Clock, maxEntries: number, maxBytes: number): TokenCache {
  if (maxEntries === 0) return { get: () => undefined, set: () => {} };
  const cache = new LRUCache<number, Slot>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (slot) => entryBytes(slot.raw.length),
    ttl: 1,
    perf: clock,
    // Read the injected clock on every check (the default caches "now" for 1 ms of real time).
    ttlResolution: 0,
  });
  return {
    get(raw, fp) {
      const slot = cache.get(fp);
      return slot !== undefined && slot.raw === raw ? slot.entry : undefined;
    },
    set(raw, fp, entry, untilMs) {
      const ttl = untilMs - clock.now();
      if (ttl > 0) cache.set(fp, { raw, entry }, { ttl });
    },
  };
}
