/**
 * Where the verifier records the proofs it has accepted, so a proof is accepted once (RFC 9449
 * §11.1). `claim` is true the first time a key is seen while it lives; false for a replay.
 * In memory per process by default; a shared store (Redis) makes every gateway refuse a replay.
 */
export interface DpopReplayCache {
  claim(key: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/**
 * In-memory replay cache, bounded: entries leave once expired, and past `maxEntries` the
 * cache refuses new proofs (fails closed) rather than forget live ones, which would let a replay in.
 */
export function createMemoryReplayCache(now: () => number, maxEntries = 200_000): DpopReplayCache {
  const seen = new Map<string, number>();
  let nextSweep = 0;
  return {
    claim(key, expiresAtMs) {
      const at = now();
      if (at >= nextSweep || seen.size >= maxEntries) {
        // Insertion order is close to expiry order (one window for every proof): stop at the first live one.
        for (const [entry, expiry] of seen) {
          if (expiry > at) break;
          seen.delete(entry);
        }
        nextSweep = at + 1000;
      }
      const known = seen.get(key);
      if (known !== undefined && known > at) return false;
      if (seen.size >= maxEntries) return false;
      seen.set(key, expiresAtMs);
      return true;
    },
  };
}
