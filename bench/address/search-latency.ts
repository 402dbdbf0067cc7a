import { createLogger } from '#common';
import type { AddressDataset } from '../../src/validation/address/dataset/load.ts';
import { autocompleteRoute } from '../../src/validation/address/http/autocomplete.ts';
import { type Percentiles, percentiles, queryMix } from './query-mix.ts';

export interface SearchLatency {
  readonly queries: number;
  /** Each query's fastest of three runs: its cost without preemption by another process. */
  readonly best: Percentiles;
  /** Every run. */
  readonly raw: Percentiles;
  /** The slowest queries (best of three), for the report. */
  readonly slowest: readonly { q: string; ms: number }[];
}

/**
 * The autocomplete handler on one thread over the query mix. On a shared machine another
 * process can take the core mid-query, so each query runs three times (GC still counts when it
 * strikes all three).
 */
export function searchLatency(dataset: AddressDataset, size = 4000): SearchLatency {
  const route = autocompleteRoute(() => dataset);
  const log = createLogger({ level: 'silent' });
  const queries = queryMix(dataset, size);
  const run = (q: string): number => {
    const t = performance.now();
    route.handle({ query: new URLSearchParams({ q }), projectId: 'bench', log });
    return performance.now() - t;
  };
  for (const q of queries.slice(0, 1000)) run(q);
  const raw: number[] = [];
  const best: { q: string; ms: number }[] = [];
  for (const q of queries) {
    const times = [run(q), run(q), run(q)];
    raw.push(...times);
    best.push({ q, ms: Math.min(...times) });
  }
  best.sort((a, b) => b.ms - a.ms);
  return {
    queries: queries.length,
    best: percentiles(best.map((b) => b.ms)),
    raw: percentiles(raw),
    slowest: best.slice(0, 5),
  };
}
