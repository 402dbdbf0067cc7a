/**
 * What tracing is configured to do, apart from reading it (tracing-settings.ts) and from the SDK
 * that acts on it (tracing-sdk.ts): the settings module loads the SDK lazily, so the SDK cannot
 * take its settings type from there without an import circle.
 */
export interface TracingSettings {
  /** Where spans are POSTed (OTLP/HTTP, JSON): the traces endpoint, or the base endpoint + `/v1/traces`. */
  readonly url: string;
  /** OTEL_SERVICE_NAME, else the process's own name (`tokengate-gateway`, `tokengate-upstream`). */
  readonly serviceName: string;
  /** OTEL_TRACES_SAMPLER (default parentbased_always_on) and its OTEL_TRACES_SAMPLER_ARG ratio. */
  readonly sampler: Sampler;
  readonly ratio: number;
  /** OTEL_BSP_SCHEDULE_DELAY: ms between two exports (default 5000). */
  readonly scheduleDelayMs: number;
}

export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type Sampler = (typeof SAMPLERS)[number];
