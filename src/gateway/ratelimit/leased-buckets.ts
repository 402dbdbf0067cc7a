import type { Buckets, Taken } from './buckets.ts';
import type { Limit } from './limit.ts';
import type { RedisConnection } from './redis-connection.ts';

/** A gateway's share of one shared counter. */
interface Lease {
  /** Tokens drawn from Redis and not yet used; below zero, calls admitted on credit (a debt). */
  tokens: number;
  pending: boolean;
  /** Redis said empty: refuse here, without asking, until then (ms). */
  blockedUntil: number;
  /** Whole tokens left in Redis at the last lease: the `r` of the RateLimit field, approximately. */
  left: number;
  /** Calls that found lease and credit used up, waiting for the lease under way. */
  waiters: Array<() => void>;
  lastUsed: number;
}

export interface LeaseEvents {
  /** A lease answered: tokens granted (0: the shared bucket is empty), or failed. */
  onLease(result: 'granted' | 'empty' | 'error'): void;
  /** A call decided without Redis (unreachable): admitted by the local fallback, refused, or fail-closed. */
  onFallback(result: 'admitted' | 'refused' | 'closed'): void;
}

export interface LeasedBucketsOptions {
  readonly redis: RedisConnection;
  readonly prefix: string;
  readonly leaseSize: number;
  readonly failOpen: boolean;
  /** The in-process buckets a fail-open gateway counts with while Redis is unreachable. */
  readonly fallback: Buckets;
  readonly now: () => number;
  readonly events: LeaseEvents;
}

const SWEEP_MS = 10_000;

/**
 * Counters shared by every gateway through Redis, without a Redis round trip per call: each
 * gateway draws tokens from the shared bucket in chunks (a lease) and spends them locally. When
 * its lease runs low it asks for the next one in the background; meanwhile it admits up to one
 * chunk on credit, which the next lease charges to the shared bucket whatever is left there.
 *
 * The bound: over any stretch of time, a shared counter admits at most its burst + its refill +
 * (gateways x chunk) calls, the chunk being min(leaseSize, a tenth of the limit, at least 1).
 * Credit is the only over-admission, and each gateway holds at most one chunk of it; leased
 * tokens a gateway has not used can under-admit elsewhere by the same amount.
 */
export function createLeasedBuckets(options: LeasedBucketsOptions): Buckets {
  const { redis, prefix, leaseSize, failOpen, fallback, now, events } = options;
  const leases = new Map<string, Lease>();
  const chunkOf = (limit: Limit) => Math.max(1, Math.min(leaseSize, Math.floor(limit.capacity / 10)));
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, lease] of leases)
      if (!lease.pending && t - lease.lastUsed > 60_000 && lease.tokens >= 0) leases.delete(key);
  }, SWEEP_MS);
  sweep.unref();

  function refill(key: string, lease: Lease, limit: Limit, resetAt: number): void {
    lease.pending = true;
    const debt = Math.max(0, -lease.tokens);
    const window = Number.isFinite(limit.windowMs) ? limit.windowMs : 0;
    // A rate bucket left alone for a window is full again, as good as absent; a quota lives to its month's end.
    const ttl = window > 0 ? 2 * window : Math.max(1, resetAt - now()) + 86_400_000;
    redis.lease(prefix + key, limit.capacity, window, chunkOf(limit), debt, Math.ceil(ttl)).then(
      ([granted, waitMs, left]) => {
        lease.tokens += debt + granted;
        lease.left = left;
        if (granted === 0) lease.blockedUntil = now() + (waitMs >= 0 ? waitMs : resetAt - now());
        events.onLease(granted > 0 ? 'granted' : 'empty');
        settle(lease);
      },
      (error: unknown) => {
        redis.failed(now(), error);
        events.onLease('error');
        settle(lease);
      },
    );
  }

  function settle(lease: Lease): void {
    lease.pending = false;
    const waiting = lease.waiters.splice(0);
    for (const wake of waiting) wake();
  }

  function withoutRedis(key: string, limit: Limit, t: number, resetAt: number): Taken {
    if (!failOpen) {
      events.onFallback('closed');
      return { ok: false, retryAfterMs: 1_000, unavailable: true };
    }
    const taken = fallback.take(key, limit, t, resetAt) as Taken;
    events.onFallback(taken.ok ? 'admitted' : 'refused');
    return taken;
  }

  function take(key: string, limit: Limit, t: number, resetAt: number): Taken | Promise<Taken> {
    if (!redis.usable(t)) return withoutRedis(key, limit, t, resetAt);
    let lease = leases.get(key);
    if (lease === undefined) {
      lease = { tokens: 0, pending: false, blockedUntil: 0, left: limit.capacity, waiters: [], lastUsed: t };
      leases.set(key, lease);
    }
    lease.lastUsed = t;
    if (t < lease.blockedUntil) return { ok: false, retryAfterMs: lease.blockedUntil - t };
    const chunk = chunkOf(limit);
    if (lease.tokens > -chunk) {
      lease.tokens -= 1;
      if (lease.tokens < chunk / 2 && !lease.pending) refill(key, lease, limit, resetAt);
      const remaining = Math.max(0, lease.left + lease.tokens);
      const resetSec =
        limit.perMs > 0
          ? Math.ceil((limit.capacity - remaining) / limit.perMs / 1000)
          : Math.ceil((resetAt - t) / 1000);
      return { ok: true, remaining, resetSec };
    }
    // Lease and credit used up: wait for the lease under way (one round trip, bounded by its timeout).
    const current = lease;
    if (!current.pending) refill(key, current, limit, resetAt);
    return new Promise<Taken>((resolve) => {
      current.waiters.push(() => resolve(take(key, limit, now(), resetAt)));
    });
  }

  return {
    take: (key, limit, t, resetAt = Number.POSITIVE_INFINITY) => take(key, limit, t, resetAt),
    refund(key: string, limit: Limit) {
      const lease = leases.get(key);
      if (!redis.usable(now())) fallback.refund(key, limit);
      else if (lease !== undefined) lease.tokens += 1;
    },
    status: () => ({ store: 'redis', connected: redis.connected(), failOpen }),
    close() {
      clearInterval(sweep);
      fallback.close();
      redis.close();
    },
  };
}
