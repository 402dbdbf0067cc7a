/**
 * Cost of one observation of the gateway's verification-latency histogram (one a request):
 * its own label-less histogram (src/gateway/ops/fast-histogram.ts) against prom-client's own
 * `Histogram` with the same buckets, label-less too, measured side by side in one run (rounds
 * interleave the two; the best round of each counts; CPU time, as the machine is shared).
 * A few seconds.
 */
import { Histogram, Registry } from 'prom-client';
import { createFastHistogram } from '../src/gateway/ops/fast-histogram.ts';

const BUCKETS = [0.00001, 0.00003, 0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 1];
const OBSERVATIONS = 1_000_000;
const ROUNDS = 5;
/** Latencies spread over the buckets as a cached-token gateway sees them (mostly 10–100 µs). */
const VALUES = Float64Array.from({ length: 4096 }, (_, i) => 0.000008 * 1.0012 ** i);

interface Observer {
  readonly name: string;
  readonly observe: (value: number) => void;
}

function observers(): Observer[] {
  const ours = createFastHistogram({ name: 'bench_seconds', help: 'Bench.', buckets: BUCKETS });
  const theirs = new Histogram({
    name: 'bench_seconds',
    help: 'Bench.',
    buckets: BUCKETS,
    registers: [new Registry()],
  });
  return [
    { name: 'createFastHistogram (ours)', observe: (value) => ours.observe(value) },
    { name: "prom-client's Histogram", observe: (value) => theirs.observe(value) },
  ];
}

function nsPerObservation(observer: Observer): number {
  const start = process.cpuUsage();
  for (let i = 0; i < OBSERVATIONS; i++) observer.observe(VALUES[i & 4095]!);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / OBSERVATIONS;
}

export default async function run(): Promise<void> {
  const all = observers();
  const best = all.map(() => Number.POSITIVE_INFINITY);
  for (const observer of all) nsPerObservation(observer); // warm the JIT
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, observer] of all.entries()) best[i] = Math.min(best[i]!, nsPerObservation(observer));
  }
  const ours = best[0]!;
  console.log(`${OBSERVATIONS.toLocaleString('en')} observations x ${ROUNDS} rounds, best round, CPU ns per observe:`);
  for (const [i, observer] of all.entries()) {
    const ratio = i === 0 ? '' : `  ${(best[i]! / ours).toFixed(1)}x ours, ${(best[i]! - ours).toFixed(0)} ns more`;
    console.log(`  ${observer.name.padEnd(30)} ${best[i]!.toFixed(1).padStart(7)} ns${ratio}`);
  }
}

if (import.meta.main) await run();
