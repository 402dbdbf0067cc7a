/**
 * The edge gateway's public surface: load/validate a configuration, start a gateway, check a
 * file without starting, and the cluster-aware process entry the CLI runs.
 */
export { loadGatewayConfig, DEFAULT_CONFIG_FILE } from './config/load.ts';
export { checkConfig, type CheckResult } from './config/check.ts';
export type { GatewayConfig, RouteConfig } from './config/gateway-config.ts';
export { type GatewayFile, gatewayFileSchema } from './config/schema.ts';
export { startGateway, type RunningGateway, type StartOptions } from './start.ts';
export { runGatewayProcess } from './process/run.ts';
