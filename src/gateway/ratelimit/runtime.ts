import type { Clock, Logger } from '#common';
import type { Registry } from 'prom-client';
import type { Buckets, BucketsStatus } from './buckets.ts';
import { createLeasedBuckets } from './leased-buckets.ts';
import { createLimiter, type Limiter } from './limiter.ts';
import { createMemoryBuckets } from './memory-buckets.ts';
import { createRateLimitMetrics } from './metrics.ts';
import { createPolicyBook, type PolicyBook } from './policy-book.ts';
import { connectRedis } from './redis-connection.ts';
import type { RateLimitsConfig } from './schema.ts';

/** The gateway's rate limiting: counters, projects' policies, and the limiter over them. */
export interface RateLimiting {
  readonly limiter: Limiter;
  readonly book: PolicyBook;
  /** The project of an API key, once the upstream has named it (key/secret calls). */
  projectOfKey(key: string): string | undefined;
  status(): BucketsStatus;
  close(): void;
}

export interface RateLimitingDeps {
  readonly clock: Clock;
  readonly log: Logger;
  readonly registry: Registry;
}

/**
 * Counters in this process, or in Redis when `rateLimits.redis.url` (or REDIS_URL) names one at
 * start-up: the store is chosen once (a reload that changes it is refused, reload/needs-restart.ts).
 */
export function createRateLimiting(config: RateLimitsConfig | undefined, deps: RateLimitingDeps): RateLimiting {
  const { clock, log } = deps;
  const now = () => clock.now();
  const memory = createMemoryBuckets(now);
  let buckets: Buckets = memory;
  const redisConfig = config?.redis;
  const events = createRateLimitMetrics(deps.registry, () => buckets.status());
  if (redisConfig?.url !== undefined) {
    buckets = createLeasedBuckets({
      redis: connectRedis(redisConfig.url, redisConfig.timeoutMs, log),
      prefix: redisConfig.keyPrefix,
      leaseSize: redisConfig.leaseSize,
      failOpen: redisConfig.failOpen,
      fallback: memory,
      now,
      events,
    });
  }
  const book = createPolicyBook();
  const keyProjects = new Map<string, string>();
  return {
    limiter: createLimiter(buckets, book, clock),
    book,
    projectOfKey: (key) => keyProjects.get(key),
    status: () => buckets.status(),
    close: () => buckets.close(),
  };
}
