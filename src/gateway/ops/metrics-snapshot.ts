import { type Aggregator, AggregatorRegistry, type MetricType } from 'prom-client';

/** One sample of a metric: its value, labels and, for a histogram's series, the series name. */
export interface MetricSample {
  readonly value: number;
  readonly labels: Partial<Record<string, string | number>>;
  readonly metricName?: string;
}

/**
 * One metric as prom-client's `registry.getMetricsAsJSON()` gives it: what a cluster worker sends
 * the primary. `aggregator` says how the primary combines the workers' values (sum, max, ...).
 * (prom-client types `type` as an enum; at run time it is the text `counter`, `histogram`, ...)
 */
export interface MetricSnapshot {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType | string;
  readonly aggregator: Aggregator;
  readonly values: readonly MetricSample[];
}

/** What the metrics port serves, rendered at scrape time. */
export interface MetricsExposition {
  readonly contentType: string;
  render(): Promise<string>;
}

/**
 * Combines several sets of metrics into one, series by series, each metric by its own
 * `aggregator` (prom-client's cluster aggregation: sum unless the metric says otherwise).
 */
export function combineSnapshots(sets: ReadonlyArray<readonly MetricSnapshot[]>) {
  return AggregatorRegistry.aggregate(sets.map((set) => [...set]));
}

/** The Prometheus text of several sets of metrics combined (see combineSnapshots). */
export function renderCombined(sets: ReadonlyArray<readonly MetricSnapshot[]>): Promise<string> {
  return combineSnapshots(sets).metrics();
}
