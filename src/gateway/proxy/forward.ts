import type { GatewayConfig } from '../config/gateway-config.ts';
import { createHttpProxyForwarder } from './engine-http-proxy.ts';
import { createUndiciForwarder } from './engine-undici.ts';
import type { Forwarder, ForwarderHooks } from './forwarder.ts';

/** The contract lives in forwarder.ts (the engines implement it); callers keep importing it from here. */
export type { Forwarder, ForwarderHooks };

/** The engine the configuration names (`upstream.engine`), http-proxy-3 unless it says undici. */
export function createForwarder(upstream: GatewayConfig['upstream'], hooks: ForwarderHooks = {}): Forwarder {
  return upstream.engine === 'undici'
    ? createUndiciForwarder(upstream, hooks)
    : createHttpProxyForwarder(upstream, hooks);
}
