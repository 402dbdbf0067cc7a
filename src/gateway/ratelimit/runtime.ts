import type { Clock, Logger } from '#common';
import type { Registry } from 'prom-client';
import type { Buckets, BucketsStatus } from './buckets.ts';
import { createLeasedBuckets } from './leased-buckets.ts';
import { createLimiter, type Limiter } from './limiter.ts';
import { createMemoryBuckets } from './memory-buckets.ts';
import { createRateLimitMetrics } from './metrics.ts';
import { createPolicyBook, type PolicyBook } from './policy-book.ts';
import { connectRedis } from './redis-connection.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { startPolicyFeed } from './policy-feed.ts';
import { createUpstreamChannel } from './upstream-channel.ts';
import { createUsageCounter } from './usage.ts';

/** The gateway's rate limiting: counters, projects' policies, and the limiter over them. */
export interface RateLimiting {
  readonly limiter: Limiter;
  readonly book: PolicyBook;
  /** The project of an API key, once the upstream has named it (key/secret calls). */
  projectOfKey(key: string): string | undefined;
  status(): BucketsStatus;
  /** Stops the loops, reports the last counts, closes Redis. */
  close(): Promise<void>;
}

export interface RateLimitingDeps {
  readonly clock: Clock;
  readonly log: Logger;
  readonly registry: Registry;
  /** The configuration in force (a reload may change the plans, the upstream, the intervals). */
  readonly current: () => GatewayConfig;
}

/**
 * Counters in this process, or in Redis when `rateLimits.redis.url` (or REDIS_URL) names one at
 * start-up: the store is chosen once (a reload that changes it is refused, reload/needs-restart.ts).
 */
export function createRateLimiting(deps: RateLimitingDeps): RateLimiting {
  const { clock, log, current } = deps;
  const config = current().rateLimits;
  const now = () => clock.now();
  const memory = createMemoryBuckets(now);
  let buckets: Buckets = memory;
  const redisConfig = config?.redis;
  const abort = new AbortController();
  const stop = new AbortController();
  const channel = createUpstreamChannel(current, abort.signal, 5_000);
  const usage = createUsageCounter(channel, log);
  const events = createRateLimitMetrics(deps.registry, () => buckets.status(), usage.totals);
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
  // The policy feed and usage reports run while the configuration has rateLimits (a reload may add them).
  const limited = () => current().rateLimits !== undefined;
  startPolicyFeed({
    channel,
    refreshMs: () => current().rateLimits?.policyRefreshMs ?? 500,
    enabled: limited,
    book,
    keyProjects,
    log,
    signal: stop.signal,
  });
  const flushLoop = async () => {
    while (!stop.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, current().rateLimits?.usageFlushMs ?? 1_000).unref());
      await usage.flush();
    }
  };
  void flushLoop();
  return {
    limiter: createLimiter(buckets, book, clock, usage),
    book,
    projectOfKey: (key) => keyProjects.get(key),
    status: () => buckets.status(),
    async close() {
      stop.abort();
      buckets.close();
      await usage.flush();
      abort.abort();
    },
  };
}
