import { describe, expect, it } from 'vitest';
import { createFastHistogram } from '../../../src/gateway/ops/fast-histogram.ts';
import { renderCombined } from '../../../src/gateway/ops/metrics-snapshot.ts';

const samplesOf = (text: string) => text.split('\n').filter((line) => line.startsWith('test_seconds'));

describe('the verification latency histogram', () => {
  it('renders cumulative le buckets, sum and count in the Prometheus text format, a value on a bound counting in that bucket', async () => {
    const histogram = createFastHistogram({
      name: 'test_seconds',
      help: 'A test histogram.',
      buckets: [0.001, 0.01, 0.1],
    });
    for (const value of [0.0005, 0.001, 0.005, 0.01, 0.25]) histogram.observe(value);
    expect(samplesOf(await renderCombined([[histogram.snapshot()]]))).toEqual([
      'test_seconds_bucket{le="0.001"} 2',
      'test_seconds_bucket{le="0.01"} 4',
      'test_seconds_bucket{le="0.1"} 4',
      'test_seconds_bucket{le="+Inf"} 5',
      'test_seconds_sum 0.2665',
      'test_seconds_count 5',
    ]);
  });

  it('sums bucket by bucket with another process’s histogram, as a cluster primary combines its workers', async () => {
    const make = () => createFastHistogram({ name: 'test_seconds', help: 'A test histogram.', buckets: [0.25, 1] });
    const [first, second] = [make(), make()];
    for (const value of [0.125, 0.5]) first.observe(value);
    for (const value of [0.0625, 0.25, 2]) second.observe(value);
    expect(samplesOf(await renderCombined([[first.snapshot()], [second.snapshot()]]))).toEqual([
      'test_seconds_bucket{le="0.25"} 3',
      'test_seconds_bucket{le="1"} 4',
      'test_seconds_bucket{le="+Inf"} 5',
      'test_seconds_sum 2.9375',
      'test_seconds_count 5',
    ]);
  });
});
