import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { GatewayConfig } from '../config/schema.ts';

/**
 * Keep-alive agent to the upstream. LIFO scheduling reuses the most recently used (warmest)
 * socket, so idle ones can time out instead of all being kept barely alive.
 */
export function createUpstreamAgent(upstream: GatewayConfig['upstream']): HttpAgent {
  const options = {
    // Socket idle timeout: a request without upstream activity this long fails as 504
    // (forward.ts); an idle pooled socket this old is closed.
    timeout: upstream.responseTimeoutMs,
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets: upstream.maxSockets,
    maxFreeSockets: upstream.keepAliveSockets,
    scheduling: 'lifo' as const,
  };
  return upstream.url.startsWith('https:') ? new HttpsAgent(options) : new HttpAgent(options);
}
