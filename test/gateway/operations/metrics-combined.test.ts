import { describe, expect, it } from 'vitest';
import { createMetrics, type MetricsSource } from '../../../src/gateway/ops/metrics.ts';
import { renderCombined } from '../../../src/gateway/ops/metrics-snapshot.ts';

/** One worker's runtime state, as the metrics read it at scrape time. */
function source(state: { keySetAge: number | null; lag: number | null; stale: boolean }): MetricsSource {
  return {
    verifierStats: () => ({ tokenCacheHits: 2, negativeCacheHits: 1, signaturesChecked: 3 }),
    keySetAgeSec: () => state.keySetAge,
    revocationLagSec: () => state.lag,
    revocationStale: () => state.stale,
  };
}

const sampleOf = (text: string, series: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith(`${series} `))
    .map((line) => line.slice(series.length + 1));

describe('the metrics of several workers combined', () => {
  it('sums counters and the latency histogram, and takes the worst worker for the staleness gauges', async () => {
    const first = createMetrics(() => source({ keySetAge: 12, lag: 0.5, stale: false }));
    const second = createMetrics(() => source({ keySetAge: 40, lag: 2, stale: true }));
    for (let i = 0; i < 3; i++) first.countRequest('/api/*', 200, '');
    for (let i = 0; i < 4; i++) second.countRequest('/api/*', 200, '');
    second.countRequest('/api/*', 401, '1024');
    first.verification.observe(0.0002);
    second.verification.observe(0.002);
    const text = await renderCombined([await first.snapshot(), await second.snapshot()]);
    expect({
      ok: sampleOf(text, 'tokengate_gateway_requests_total{route="/api/*",status="200",error_code=""}'),
      refused: sampleOf(text, 'tokengate_gateway_requests_total{route="/api/*",status="401",error_code="1024"}'),
      verified: sampleOf(text, 'tokengate_gateway_verification_seconds_count'),
      fastest: sampleOf(text, 'tokengate_gateway_verification_seconds_bucket{le="0.0003"}'),
      hits: sampleOf(text, 'tokengate_gateway_token_cache_total{result="hit"}'),
      keySetAge: sampleOf(text, 'tokengate_gateway_keyset_age_seconds'),
      lag: sampleOf(text, 'tokengate_gateway_revocation_lag_seconds'),
      stale: sampleOf(text, 'tokengate_gateway_revocation_stale'),
    }).toEqual({
      ok: ['7'],
      refused: ['1'],
      verified: ['2'],
      fastest: ['1'],
      hits: ['4'],
      keySetAge: ['40'],
      lag: ['2'],
      stale: ['1'],
    });
  });

  it('serves a single gateway’s histogram with its registry on the metrics port text', async () => {
    const metrics = createMetrics(() => source({ keySetAge: 1, lag: 1, stale: false }));
    metrics.verification.observe(0.00002);
    const text = await metrics.exposition.render();
    expect(sampleOf(text, 'tokengate_gateway_verification_seconds_count')).toEqual(['1']);
    expect(sampleOf(text, 'tokengate_gateway_keyset_age_seconds')).toEqual(['1']);
    expect(text).toContain('# TYPE tokengate_gateway_verification_seconds histogram');
  });
});
