export { loadUpstreamConfig, type UpstreamConfig } from './config.ts';
export { ConfigError } from './config-error.ts';
export { startUpstream, type Upstream, type UpstreamOptions } from './start.ts';
export { resolveSecret, readSecretFile, type ResolvedSecret } from './secret-file.ts';
export { ADMIN_ROUTES } from './admin/server.ts';
