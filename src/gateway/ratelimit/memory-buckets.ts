import type { Buckets, Taken } from './buckets.ts';
import type { Limit } from './limit.ts';

interface Bucket {
  tokens: number;
  at: number;
  limit: Limit;
  /** A quota's bucket (no refill) is forgotten once its month is over. */
  until: number;
}

/** How often idle buckets are swept (a full bucket holds nothing worth keeping). */
const SWEEP_MS = 10_000;

/**
 * Token buckets in this process: exact, no dependency, one Map lookup a counter. Buckets that
 * have refilled to full, and quota buckets of a month that is over, are swept every 10 s, so
 * memory follows the callers active in the last window, not every caller ever seen.
 */
export function createMemoryBuckets(now: () => number): Buckets & { size(): number } {
  const buckets = new Map<string, Bucket>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, b] of buckets) {
      const { perMs, capacity } = b.limit;
      if ((perMs > 0 && b.tokens + (t - b.at) * perMs >= capacity) || t >= b.until) buckets.delete(key);
    }
  }, SWEEP_MS);
  sweep.unref();
  return {
    size: () => buckets.size,
    take(key: string, limit: Limit, t: number, resetAt = Number.POSITIVE_INFINITY): Taken {
      let b = buckets.get(key);
      if (b === undefined) {
        b = { tokens: limit.capacity, at: t, limit, until: resetAt };
        buckets.set(key, b);
      } else {
        // A changed limit (a reload, a new override) takes effect at once.
        b.limit = limit;
        if (t > b.at) b.tokens += ((t - b.at) * limit.capacity) / limit.windowMs;
        b.at = Math.max(b.at, t);
        if (b.tokens > limit.capacity) b.tokens = limit.capacity;
      }
      return takeOne(b, limit, t, resetAt);
    },
    refund(key: string, limit: Limit): void {
      const b = buckets.get(key);
      if (b !== undefined) b.tokens = Math.min(limit.capacity, b.tokens + 1);
    },
    status: () => ({ store: 'memory', connected: true, failOpen: true }),
    close: () => clearInterval(sweep),
  };
}

/** Takes a token of a refilled bucket; `resetSec` is when it is full again (a quota: the month's end). */
export function takeOne(b: { tokens: number }, limit: Limit, t: number, resetAt: number): Taken {
  if (b.tokens >= 1) {
    b.tokens -= 1;
    const resetSec =
      limit.perMs > 0 ? Math.ceil((limit.capacity - b.tokens) / limit.perMs / 1000) : Math.ceil((resetAt - t) / 1000);
    return { ok: true, remaining: Math.floor(b.tokens), resetSec };
  }
  return { ok: false, retryAfterMs: limit.perMs > 0 ? (1 - b.tokens) / limit.perMs : resetAt - t };
}
