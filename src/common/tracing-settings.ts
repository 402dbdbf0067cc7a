import { type Env, setting } from './config/setting.ts';
import { SAMPLERS, type Sampler, type TracingSettings } from './tracing-options.ts';

/**
 * Whether and how to export traces, read from the OpenTelemetry environment variables. Nothing
 * here loads the OpenTelemetry SDK: with no endpoint set, tracing is off and the SDK is never
 * imported (tracing-sdk.ts is loaded only by `loadTracing`).
 */

/** The settings, or undefined when tracing is off (no endpoint, OTEL_SDK_DISABLED, or OTEL_TRACES_EXPORTER=none). */
export function tracingSettings(env: Env, defaultServiceName: string): TracingSettings | undefined {
  if (setting(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  if (setting(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase() === 'none') return undefined;
  const tracesUrl = setting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = setting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const url = tracesUrl ?? (base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`);
  if (url === undefined) return undefined;
  const named = setting(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase();
  const sampler = (SAMPLERS as readonly string[]).includes(named ?? '') ? (named as Sampler) : 'parentbased_always_on';
  const ratio = Number(setting(env, 'OTEL_TRACES_SAMPLER_ARG') ?? 1);
  const delay = Number(setting(env, 'OTEL_BSP_SCHEDULE_DELAY') ?? 5000);
  return {
    url,
    serviceName: setting(env, 'OTEL_SERVICE_NAME') ?? defaultServiceName,
    sampler,
    ratio: Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : 1,
    scheduleDelayMs: Number.isFinite(delay) && delay >= 0 ? delay : 5000,
  };
}

/** The SDK, loaded only when tracing is on. */
export type TracingSdk = import('./tracing-sdk.ts').TracingSdk;

/** Starts the SDK when there are settings (tracing is on); otherwise resolves undefined without loading it. */
export async function loadTracing(settings: TracingSettings | undefined): Promise<TracingSdk | undefined> {
  if (settings === undefined) return undefined;
  const { startTracingSdk } = await import('./tracing-sdk.ts');
  return startTracingSdk(settings);
}
