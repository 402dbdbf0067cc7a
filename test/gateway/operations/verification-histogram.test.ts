import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/gateway/ops/metrics.ts';
import { renderCombined } from '../../../src/gateway/ops/metrics-snapshot.ts';

const NAME = 'tokengate_gateway_verification_seconds';
const samplesOf = (text: string) => text.split('\n').filter((line) => line.startsWith(NAME));
const metrics = () => createMetrics(() => undefined);

describe('the verification latency histogram', () => {
  it('renders cumulative le buckets, sum and count in the Prometheus text format, a value on a bound counting in that bucket', async () => {
    const { verification, exposition } = metrics();
    for (const value of [0.00005, 0.0001, 0.0005, 0.001, 0.25]) verification.observe(value);
    expect(samplesOf(await exposition.render())).toEqual([
      `${NAME}_bucket{le="0.00001"} 0`,
      `${NAME}_bucket{le="0.00003"} 0`,
      `${NAME}_bucket{le="0.0001"} 2`,
      `${NAME}_bucket{le="0.0003"} 2`,
      `${NAME}_bucket{le="0.001"} 4`,
      `${NAME}_bucket{le="0.003"} 4`,
      `${NAME}_bucket{le="0.01"} 4`,
      `${NAME}_bucket{le="0.03"} 4`,
      `${NAME}_bucket{le="0.1"} 4`,
      `${NAME}_bucket{le="1"} 5`,
      `${NAME}_bucket{le="+Inf"} 5`,
      `${NAME}_sum 0.25165`,
      `${NAME}_count 5`,
    ]);
  });

  it('sums bucket by bucket with another process’s histogram, as a cluster primary combines its workers', async () => {
    const [first, second] = [metrics(), metrics()];
    for (const value of [0.125, 0.5]) first.verification.observe(value);
    for (const value of [0.0625, 1, 2]) second.verification.observe(value);
    const text = await renderCombined([await first.snapshot(), await second.snapshot()]);
    expect(samplesOf(text).filter((line) => !line.includes('_bucket{le="0.'))).toEqual([
      `${NAME}_bucket{le="1"} 4`,
      `${NAME}_bucket{le="+Inf"} 5`,
      `${NAME}_sum 3.6875`,
      `${NAME}_count 5`,
    ]);
    expect(samplesOf(text)).toContain(`${NAME}_bucket{le="0.1"} 1`);
  });
});
