import { Counter, Gauge, type Registry } from 'prom-client';
import type { BucketsStatus } from './buckets.ts';
import type { LeaseEvents } from './leased-buckets.ts';

/**
 * The rate limiter's own metrics (refused calls are in `tokengate_gateway_requests_total` under
 * codes 1045, 1046 and 1056). Counted in plain numbers and handed over at scrape time: the
 * request path pays no label hashing.
 */
export function createRateLimitMetrics(
  registry: Registry,
  status: () => BucketsStatus | undefined,
  projectCalls: () => ReadonlyMap<string, number>,
): LeaseEvents {
  const leases = { granted: 0, empty: 0, error: 0 };
  const fallback = { admitted: 0, refused: 0, closed: 0 };
  const registers = [registry];
  new Gauge({
    name: 'tokengate_gateway_ratelimit_redis_up',
    help: "1 while the rate limits' Redis is connected, 0 while calls are decided without it (absent without Redis; in cluster mode the worst worker).",
    aggregator: 'min',
    registers,
    collect() {
      const s = status();
      if (s?.store === 'redis') this.set(s.connected ? 1 : 0);
    },
  });
  new Counter({
    name: 'tokengate_gateway_ratelimit_leases_total',
    help: 'Leases asked of Redis, by result: granted (tokens drawn), empty (the shared bucket had none), error.',
    labelNames: ['result'] as const,
    registers,
    collect() {
      this.reset();
      for (const [result, n] of Object.entries(leases)) if (n > 0) this.inc({ result }, n);
    },
  });
  new Counter({
    name: 'tokengate_gateway_ratelimit_without_redis_total',
    help: 'Calls decided while Redis was unreachable: admitted or refused by the local fallback (failOpen), or closed (503 1056).',
    labelNames: ['result'] as const,
    registers,
    collect() {
      this.reset();
      for (const [result, n] of Object.entries(fallback)) if (n > 0) this.inc({ result }, n);
    },
  });
  new Counter({
    name: 'tokengate_gateway_project_calls_total',
    help: 'Calls admitted on rate-limited routes, by project (one series per project that called this gateway; at most 100,000).',
    labelNames: ['project_id'] as const,
    registers,
    collect() {
      this.reset();
      for (const [project_id, n] of projectCalls()) this.inc({ project_id }, n);
    },
  });
  return {
    onLease: (result) => {
      leases[result]++;
    },
    onFallback: (result) => {
      fallback[result]++;
    },
  };
}
