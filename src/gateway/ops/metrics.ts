import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { VerifierStats } from '#auth';
import type { MetricSnapshot, MetricsExposition } from './metrics-snapshot.ts';

/** What the metrics read at scrape time (the auth runtime's current state). */
export interface MetricsSource {
  /** The verifier's own counters (token cache hits, negative-cache hits, signatures checked). */
  verifierStats(): VerifierStats | undefined;
  keySetAgeSec(): number | null;
  revocationLagSec(): number | null;
  revocationStale(): boolean;
}

/**
 * Every gateway metric in one place (Envoy `stats.h`). One registry per gateway instance, so
 * tests can run several side by side. In cluster mode the primary serves the metrics port: it
 * asks every worker for `snapshot()` at scrape time and combines them, each metric by its
 * `aggregator` (counters and histograms summed; the staleness gauges by their maximum, the
 * worst worker, since a sum of ages means nothing).
 */
export function createMetrics(source: () => MetricsSource | undefined) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tokengate_gateway_' });
  const registers = [registry];
  const ageOrNaN = (v: number | null | undefined) => (v === null || v === undefined ? Number.NaN : v);
  // Counted in a plain map and handed to prom-client at scrape time: its `inc(labels)` hashes
  // a label object on every call (~1 µs a request). The map is bounded like the label set.
  const answered = new Map<
    string,
    Map<number | string, { route: string; status: string; code: string; count: number }>
  >();
  const requests = new Counter({
    name: 'tokengate_gateway_requests_total',
    help: 'Requests answered, by route pattern, HTTP status and API error code ("" when none).',
    labelNames: ['route', 'status', 'error_code'] as const,
    registers,
    collect() {
      this.reset();
      for (const byRoute of answered.values()) {
        for (const { route, status, code, count } of byRoute.values())
          this.inc({ route, status, error_code: code }, count);
      }
    },
  });
  // prom-client's own histogram: its `observe` costs about 0.1 µs more than a hand-written one
  // (`npm run bench -- histogram` measured it; docs/performance.md), too little to keep one.
  const verification = new Histogram({
    name: 'tokengate_gateway_verification_seconds',
    help: 'Time spent verifying a bearer token (cache hits included).',
    buckets: [0.00001, 0.00003, 0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 1],
    registers,
  });
  /** Everything this process measured, as prom-client's JSON: what a cluster worker sends the primary. */
  const snapshot = (): Promise<MetricSnapshot[]> => registry.getMetricsAsJSON();
  /** The metrics port of a single gateway: the registry's text. */
  const exposition: MetricsExposition = { contentType: registry.contentType, render: () => registry.metrics() };
  return {
    registry,
    snapshot,
    exposition,
    requests,
    countRequest(route: string, status: number, errorCode: string): void {
      // Keyed by the route string itself (its hash is computed once), then status and code.
      let byRoute = answered.get(route);
      if (byRoute === undefined) {
        byRoute = new Map();
        answered.set(route, byRoute);
      }
      const key = errorCode === '' ? status : `${status} ${errorCode}`;
      const entry = byRoute.get(key);
      if (entry !== undefined) entry.count++;
      else byRoute.set(key, { route, status: String(status), code: errorCode, count: 1 });
    },
    verification,
    tokenCache: new Counter({
      name: 'tokengate_gateway_token_cache_total',
      help: 'Verifications by outcome: hit (verified-token cache), negative_hit (known-bad token, no crypto), miss (signature checked). Read from the verifier at scrape time; restarts from 0 when a reload replaces the verifier.',
      labelNames: ['result'] as const,
      registers,
      collect() {
        const stats = source()?.verifierStats();
        if (!stats) return;
        this.reset();
        this.inc({ result: 'hit' }, stats.tokenCacheHits);
        this.inc({ result: 'negative_hit' }, stats.negativeCacheHits);
        this.inc({ result: 'miss' }, stats.signaturesChecked);
      },
    }),
    keySetFetches: new Counter({
      name: 'tokengate_gateway_keyset_fetch_total',
      help: 'Key-set fetches by outcome (ok, failed).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    unknownKid: new Counter({
      name: 'tokengate_gateway_unknown_kid_total',
      help: 'Tokens naming an unknown kid, by whether a refetch was made (false: cooldown or remembered).',
      labelNames: ['refetched'] as const,
      registers,
    }),
    externalKeySetFetches: new Counter({
      name: 'tokengate_gateway_external_keyset_fetch_total',
      help: "An external issuer's key-set fetches, by issuer name and outcome (ok, failed).",
      labelNames: ['issuer', 'outcome'] as const,
      registers,
    }),
    externalUnknownKid: new Counter({
      name: 'tokengate_gateway_external_unknown_kid_total',
      help: "Tokens naming a kid unknown to their external issuer's key set, by issuer name and whether a refetch was made.",
      labelNames: ['issuer', 'refetched'] as const,
      registers,
    }),
    staleKeysServed: new Counter({
      name: 'tokengate_gateway_keyset_stale_served_total',
      help: 'Verifications served from a key set past its max-age because the issuer is unreachable.',
      registers,
    }),
    upstreamFailures: new Counter({
      name: 'tokengate_gateway_upstream_failures_total',
      help: 'Upstream failures by kind (upstream_unavailable, upstream_timeout).',
      labelNames: ['kind'] as const,
      registers,
    }),
    keySetAge: new Gauge({
      name: 'tokengate_gateway_keyset_age_seconds',
      help: "Seconds since the key set was last fetched successfully (NaN before the first; in cluster mode the oldest worker's).",
      aggregator: 'max',
      registers,
      collect() {
        this.set(ageOrNaN(source()?.keySetAgeSec()));
      },
    }),
    revocationLag: new Gauge({
      name: 'tokengate_gateway_revocation_lag_seconds',
      help: "Seconds since the revocation set last synced with the issuer feed (NaN before the first; in cluster mode the most behind worker's).",
      aggregator: 'max',
      registers,
      collect() {
        this.set(ageOrNaN(source()?.revocationLagSec()));
      },
    }),
    revocationStale: new Gauge({
      name: 'tokengate_gateway_revocation_stale',
      help: '1 while the revocation set is older than revocation.maxStalenessSec (in cluster mode: in any worker).',
      aggregator: 'max',
      registers,
      collect() {
        this.set(source()?.revocationStale() ? 1 : 0);
      },
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createMetrics>;
