import { isDeepStrictEqual } from 'node:util';
import type { GatewayConfig } from '../config/gateway-config.ts';

/**
 * Sections a reload cannot change in place (sockets already bound, workers forked). A new
 * certificate and key are applied in place (tls-files.ts); turning TLS on or off is not.
 */
const RESTART_SECTIONS = ['listen', 'metrics', 'workers'] as const;
/** Sections the verification runtime is built from; unchanged → the running one is kept (warm caches). */
const AUTH_SECTIONS = ['issuer', 'externalIssuers', 'caches', 'revocation', 'dpop'] as const;

export function sectionsNeedingRestart(old: GatewayConfig, next: GatewayConfig): string[] {
  const changed: string[] = RESTART_SECTIONS.filter((s) => !isDeepStrictEqual(old[s], next[s]));
  if ((old.tls === undefined) !== (next.tls === undefined)) changed.push('tls (on or off)');
  const { maxHeaderSize, headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = old.limits;
  const n = next.limits;
  if (
    maxHeaderSize !== n.maxHeaderSize ||
    headersTimeoutMs !== n.headersTimeoutMs ||
    requestTimeoutMs !== n.requestTimeoutMs ||
    keepAliveTimeoutMs !== n.keepAliveTimeoutMs
  ) {
    changed.push('limits (listener)');
  }
  // The counters' store is chosen at start-up (ratelimit/runtime.ts); the limits themselves reload.
  if (!isDeepStrictEqual(old.rateLimits?.redis, next.rateLimits?.redis)) changed.push('rateLimits.redis');
  return changed;
}

export function authChanged(old: GatewayConfig, next: GatewayConfig): boolean {
  return AUTH_SECTIONS.some((s) => !isDeepStrictEqual(old[s], next[s]));
}
