import { LRUCache } from 'lru-cache';
import type { Clock } from '#common';

/**
 * A short-lived memo of store lookups (projects by id, API keys by key), so a burst of calls
 * costs one store query per second instead of one per call (measured: a PGlite lookup is
 * ~300 µs, the whole bearer check ~4 µs). The TTL is the bound on staleness: a deleted project
 * (and, by cascade, its keys) is refused at most `ttlMs` after the deletion, on every replica,
 * with no invalidation message needed. Absent records are remembered too (a flood of made-up
 * ids costs the store nothing); concurrent lookups share one query; failures are not remembered.
 */
export type Lookup<T> = (id: string) => Promise<T | null>;

const MAX_ENTRIES = 10_000;

export function cachedLookup<T extends object>(lookup: Lookup<T>, clock: Clock, ttlMs: number): Lookup<T> {
  if (ttlMs <= 0) return lookup;
  // ttlResolution 0: read the injected clock on every check (no timer-cached "now").
  const cache = new LRUCache<string, Promise<T | null>>({
    max: MAX_ENTRIES,
    ttl: ttlMs,
    ttlResolution: 0,
    perf: clock,
  });
  return (id) => {
    const cached = cache.get(id);
    if (cached !== undefined) return cached;
    const pending = lookup(id);
    cache.set(id, pending);
    pending.catch(() => cache.delete(id));
    return pending;
  };
}
