import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createFastHistogram } from '../../../src/gateway/ops/fast-histogram.ts';

describe('the verification latency histogram', () => {
  it('renders cumulative le buckets, sum and count in the Prometheus text format, a value on a bound counting in that bucket', async () => {
    const registry = new Registry();
    const histogram = createFastHistogram({
      name: 'test_seconds',
      help: 'A test histogram.',
      buckets: [0.001, 0.01, 0.1],
      registry,
    });
    for (const value of [0.0005, 0.001, 0.005, 0.01, 0.25]) histogram.observe(value);
    const samples = (await registry.metrics()).split('\n').filter((line) => line.startsWith('test_seconds'));
    expect(samples).toEqual([
      'test_seconds_bucket{le="0.001"} 2',
      'test_seconds_bucket{le="0.01"} 4',
      'test_seconds_bucket{le="0.1"} 4',
      'test_seconds_bucket{le="+Inf"} 5',
      'test_seconds_sum 0.2665',
      'test_seconds_count 5',
    ]);
  });
});
