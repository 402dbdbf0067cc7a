import { loadTracing, tracingSettings } from '#common';
import type { GatewayTracing } from './types.ts';

/**
 * The gateway's tracing when OTEL_EXPORTER_OTLP_ENDPOINT (or the traces endpoint) is set, else
 * undefined: then neither the OpenTelemetry SDK nor the span code is ever imported.
 */
export async function loadGatewayTracing(
  env: Readonly<Record<string, string | undefined>>,
  upstreamUrl: string,
): Promise<GatewayTracing | undefined> {
  const sdk = await loadTracing(tracingSettings(env, 'tokengate-gateway'));
  if (sdk === undefined) return undefined;
  const { createGatewayTracing } = await import('./request-trace.ts');
  return createGatewayTracing(sdk, upstreamUrl);
}
