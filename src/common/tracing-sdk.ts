import { context, type Tracer, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { TracingSettings } from './tracing-options.ts';

/** A started OpenTelemetry SDK: a tracer exporting over OTLP/HTTP, and the W3C propagator. */
export interface TracingSdk {
  readonly tracer: Tracer;
  readonly propagator: W3CTraceContextPropagator;
  /** Exports what is left, then stops. */
  shutdown(): Promise<void>;
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/**
 * One tracer provider per service (`npm start` runs the gateway and the upstream in one process,
 * each with its own service name). The context manager (AsyncLocalStorage) is process-wide and
 * set once: the upstream's store spans find their request's span through it.
 */
export function startTracingSdk(settings: TracingSettings): TracingSdk {
  if (contextManager === undefined) {
    contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
  }
  const resource = resourceFromAttributes({ 'service.name': settings.serviceName }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(settings),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: settings.url }),
        scheduledDelayMillis: settings.scheduleDelayMs,
      }),
    ],
  });
  return {
    tracer: provider.getTracer('tokengate'),
    propagator: new W3CTraceContextPropagator(),
    // A collector that is down loses the last spans; it must not fail the shutdown (a drain, an exit 0).
    shutdown: () => provider.shutdown().catch(() => undefined),
  };
}

function samplerOf(settings: TracingSettings): Sampler {
  switch (settings.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(settings.ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** Header getter and setter for the propagator, over Node's header objects. */
export const headerGetter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get(carrier: Record<string, unknown>, key: string): string | undefined {
    const value = carrier[key];
    return Array.isArray(value) ? value[0] : typeof value === 'string' ? value : undefined;
  },
};
export const headerSetter = {
  set(carrier: Record<string, unknown>, key: string, value: string): void {
    carrier[key] = value;
  },
};

export { context, trace };
