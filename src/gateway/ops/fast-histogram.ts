import type { MetricSample, MetricSnapshot } from './metrics-snapshot.ts';

/**
 * A label-less Prometheus histogram whose `observe` is a bucket search and three additions
 * (prom-client's allocates and hashes a label object per call, ~1 µs on every request). It is
 * not a prom-client metric: `snapshot()` gives it in the shape `registry.getMetricsAsJSON()`
 * gives prom-client's own, which the metrics port renders (and a cluster primary sums) with them.
 */
export interface FastHistogram {
  observe(value: number): void;
  snapshot(): MetricSnapshot;
}

export function createFastHistogram(options: {
  name: string;
  help: string;
  buckets: readonly number[];
}): FastHistogram {
  const { name, help, buckets } = options;
  const counts = new Float64Array(buckets.length + 1);
  let sum = 0;
  return {
    observe(value) {
      let i = 0;
      while (i < buckets.length && value > (buckets[i] as number)) i++;
      counts[i] = (counts[i] ?? 0) + 1;
      sum += value;
    },
    snapshot() {
      const values: MetricSample[] = [];
      let cumulative = 0;
      for (let i = 0; i <= buckets.length; i++) {
        cumulative += counts[i] ?? 0;
        const le = i < buckets.length ? (buckets[i] ?? 0) : '+Inf';
        values.push({ labels: { le }, value: cumulative, metricName: `${name}_bucket` });
      }
      values.push(
        { labels: {}, value: sum, metricName: `${name}_sum` },
        { labels: {}, value: cumulative, metricName: `${name}_count` },
      );
      return { name, help, type: 'histogram', aggregator: 'sum', values };
    },
  };
}
