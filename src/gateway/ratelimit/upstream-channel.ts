import type { GatewayConfig } from '../config/gateway-config.ts';
import { resolveFeedToken } from '../verification/feed-token.ts';

/**
 * Requests to the upstream's internal rate-limit endpoints, with the revocation feed's credential
 * (read once it exists), each bounded by a timeout so a silent upstream never stalls a loop.
 */
export interface UpstreamChannel {
  request(path: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Response>;
}

export function createUpstreamChannel(
  current: () => GatewayConfig,
  signal: AbortSignal,
  timeoutMs: number,
): UpstreamChannel {
  let token: Promise<string> | undefined;
  return {
    async request(path, init) {
      const config = current();
      token ??= resolveFeedToken(config.issuer.revocationFeed, signal);
      const credential = await token;
      const base = config.upstream.url.replace(/\/+$/, '');
      return fetch(`${base}${path}`, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${credential}` },
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
    },
  };
}
