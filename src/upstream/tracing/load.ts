import { loadTracing, type TracingSettings } from '#common';
import type { UpstreamTracing } from './types.ts';

/** The upstream's tracing when the environment asks for it, else undefined (the SDK is never imported). */
export async function loadUpstreamTracing(settings: TracingSettings | undefined): Promise<UpstreamTracing | undefined> {
  const sdk = await loadTracing(settings);
  if (sdk === undefined) return undefined;
  const { createUpstreamTracing } = await import('./upstream-tracing.ts');
  return createUpstreamTracing(sdk);
}
