import type { GatewayConfig } from '../config/gateway-config.ts';
import type { BucketsStatus } from '../ratelimit/buckets.ts';
import { type CompiledPlans, compilePlans } from '../ratelimit/plans.ts';
import { type CompiledForwardAuth, compileForwardAuth } from '../forward-auth/index.ts';
import { createForwarder, type Forwarder, type ForwarderHooks } from '../proxy/forward.ts';
import { createRouter, type GatewayRouter } from '../routing/router.ts';
import type { AuthRuntime } from '../verification/runtime.ts';

/**
 * Everything one configuration builds (router, forwarder, auth runtime). A reload builds a new
 * generation and swaps one reference; requests hold the generation they started on, and a
 * retired generation closes its upstream sockets only after its last request has finished.
 */
export interface Generation {
  readonly config: GatewayConfig;
  readonly router: GatewayRouter;
  readonly forwarder: Forwarder;
  readonly auth: AuthRuntime;
  /** `rateLimits` compiled; undefined when the file has none (nothing is limited). */
  readonly plans: CompiledPlans | undefined;
  /** The counters' store, for /readyz; undefined when nothing is limited. */
  readonly rateLimitStatus: (() => BucketsStatus) | undefined;
  /** `forwardAuth` compiled: the listener decides instead of forwarding; undefined when it forwards. */
  readonly forwardAuth: CompiledForwardAuth | undefined;
  inflight: number;
  retired: boolean;
}

export function createGeneration(
  config: GatewayConfig,
  auth: AuthRuntime,
  hooks: ForwarderHooks,
  rateLimitStatus?: () => BucketsStatus,
): Generation {
  return {
    config,
    router: createRouter(config.routes),
    forwarder: createForwarder(config.upstream, hooks),
    auth,
    plans: config.rateLimits === undefined ? undefined : compilePlans(config.rateLimits),
    rateLimitStatus: config.rateLimits === undefined ? undefined : rateLimitStatus,
    forwardAuth: compileForwardAuth(config.forwardAuth),
    inflight: 0,
    retired: false,
  };
}

export function enter(gen: Generation): void {
  gen.inflight++;
}

export function leave(gen: Generation, onIdle: (gen: Generation) => void): void {
  gen.inflight--;
  if (gen.retired && gen.inflight === 0) onIdle(gen);
}

export function retire(gen: Generation, onIdle: (gen: Generation) => void): void {
  gen.retired = true;
  if (gen.inflight === 0) onIdle(gen);
}
