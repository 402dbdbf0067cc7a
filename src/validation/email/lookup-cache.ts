import { LRUCache } from 'lru-cache';
import type { Clock } from '#common';
import type { MailRouting, MxLookup } from './mx-lookup.ts';

export interface LookupCacheOptions {
  readonly clock: Clock;
  /** Domains remembered at most (default 10,000). */
  readonly max?: number;
}

/** `resolveMx` does not expose record TTLs, so answers are kept for fixed, short times. */
export const FOUND_TTL_MS = 300_000;
export const NOT_FOUND_TTL_MS = 60_000;

function ttlFor(routing: MailRouting): number {
  return routing.kind === 'mx' || routing.kind === 'implicit' ? FOUND_TTL_MS : NOT_FOUND_TTL_MS;
}

/**
 * Remembers definite answers per domain (most traffic is a few big providers) and shares one
 * lookup between concurrent requests for the same domain. `unknown` is never cached: the next
 * request asks DNS again rather than repeating a failure.
 */
export function cachedLookup(lookup: MxLookup, options: LookupCacheOptions): MxLookup {
  const answers = new LRUCache<string, MailRouting>({
    max: options.max ?? 10_000,
    ttl: FOUND_TTL_MS,
    perf: { now: () => options.clock.now() },
    ttlResolution: 0, // read the clock on every check (a fake clock moves without timers)
  });
  const inFlight = new Map<string, Promise<MailRouting>>();
  return (domain) => {
    const known = answers.get(domain) ?? inFlight.get(domain);
    if (known) return Promise.resolve(known);
    const pending = lookup(domain)
      .then((routing) => {
        if (routing.kind !== 'unknown') answers.set(domain, routing, { ttl: ttlFor(routing) });
        return routing;
      })
      .finally(() => inFlight.delete(domain));
    inFlight.set(domain, pending);
    return pending;
  };
}
