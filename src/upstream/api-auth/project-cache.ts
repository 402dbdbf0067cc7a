import { LRUCache } from 'lru-cache';
import type { Clock } from '#common';
import type { Project, Store } from '#store';

/**
 * A short-lived memo of project lookups, so a burst of calls for one project costs one store
 * query. The TTL is the bound on how long a deleted project can still be served (1025 comes at
 * most `ttlMs` after the deletion, on every replica, with no invalidation message needed).
 * Concurrent lookups of one id share the pending query; a failed query is not remembered.
 */
export interface ProjectCache {
  get(projectId: string): Promise<Project | null>;
}

const MAX_ENTRIES = 10_000;

export function createProjectCache(store: Pick<Store, 'getProject'>, clock: Clock, ttlMs: number): ProjectCache {
  if (ttlMs <= 0) return { get: (id) => store.getProject(id) };
  // ttlResolution 0: read the injected clock on every check (no timer-cached "now").
  const cache = new LRUCache<string, Promise<Project | null>>({ max: MAX_ENTRIES, ttl: ttlMs, ttlResolution: 0, perf: clock });
  return {
    get(projectId) {
      const cached = cache.get(projectId);
      if (cached !== undefined) return cached;
      const pending = store.getProject(projectId);
      cache.set(projectId, pending);
      pending.catch(() => cache.delete(projectId));
      return pending;
    },
  };
}
