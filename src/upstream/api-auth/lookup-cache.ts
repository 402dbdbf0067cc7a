import { LRUCache } from 'lru-cache';
import type { Clock } from '#common';

/**
 * A short-lived memo of store lookups (projects by id, API keys by key), so a burst of calls
 * costs one store query per second instead of one per call (measured: a PGlite lookup is
 * ~300 µs, the whole bearer check ~4 µs). Every replica's store announces its changes, and the
 * authenticator evicts what they name (`evict`, `evictWhere`, `clear`); the TTL bounds staleness
 * only when an announcement is lost. Absent records are remembered too (a flood of made-up ids
 * costs the store nothing); concurrent lookups share one query; failures are not remembered.
 */
export type Lookup<T> = (id: string) => Promise<T | null>;

export interface CachedLookup<T> extends Lookup<T> {
  evict(id: string): void;
  /** Drops the records `matches` picks, and every lookup still in flight (its record is not known yet). */
  evictWhere(matches: (record: T) => boolean): void;
  clear(): void;
}

interface Entry<T> {
  readonly pending: Promise<T | null>;
  settled: boolean;
  record: T | null;
}

const MAX_ENTRIES = 10_000;

export function cachedLookup<T extends object>(lookup: Lookup<T>, clock: Clock, ttlMs: number): CachedLookup<T> {
  if (ttlMs <= 0) return Object.assign((id: string) => lookup(id), { evict() {}, evictWhere() {}, clear() {} });
  // ttlResolution 0: read the injected clock on every check (no timer-cached "now").
  const cache = new LRUCache<string, Entry<T>>({ max: MAX_ENTRIES, ttl: ttlMs, ttlResolution: 0, perf: clock });
  const cached = (id: string) => {
    const hit = cache.get(id);
    if (hit !== undefined) return hit.pending;
    const entry: Entry<T> = { pending: lookup(id), settled: false, record: null };
    cache.set(id, entry);
    entry.pending.then(
      (record) => {
        entry.settled = true;
        entry.record = record;
      },
      () => {
        if (cache.peek(id) === entry) cache.delete(id);
      },
    );
    return entry.pending;
  };
  return Object.assign(cached, {
    evict: (id: string) => void cache.delete(id),
    evictWhere(matches: (record: T) => boolean) {
      for (const [id, entry] of cache.entries())
        if (!entry.settled || (entry.record !== null && matches(entry.record))) cache.delete(id);
    },
    clear: () => cache.clear(),
  });
}
