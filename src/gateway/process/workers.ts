import { availableParallelism } from 'node:os';
import type { GatewayConfig } from '../config/gateway-config.ts';

/** `workers: auto` is one worker per core the process may use. */
export function workerCount(config: GatewayConfig): number {
  return config.workers === 'auto' ? availableParallelism() : config.workers;
}
