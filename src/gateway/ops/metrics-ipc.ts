import type { MetricSnapshot } from './metrics-snapshot.ts';

/** The primary asks a worker for its metrics (at scrape time, never per request). */
export interface MetricsRequest {
  readonly type: 'tokengate:metrics-request';
  readonly id: number;
}

/** A worker's answer: everything it measured, as prom-client's JSON. */
export interface MetricsAnswer {
  readonly type: 'tokengate:metrics-answer';
  readonly id: number;
  readonly metrics: readonly MetricSnapshot[];
}

export function metricsRequest(id: number): MetricsRequest {
  return { type: 'tokengate:metrics-request', id };
}

export function isMetricsRequest(message: unknown): message is MetricsRequest {
  return (message as Partial<MetricsRequest> | null)?.type === 'tokengate:metrics-request';
}

export function isMetricsAnswer(message: unknown, id: number): message is MetricsAnswer {
  const answer = message as Partial<MetricsAnswer> | null;
  return answer?.type === 'tokengate:metrics-answer' && answer.id === id && Array.isArray(answer.metrics);
}
