export { loadUpstreamConfig, type UpstreamConfig, upstreamConfigProblems } from './config.ts';
export { upstreamEnvironment } from './env-schema.ts';
export { startUpstream, type Upstream, type UpstreamOptions } from './start.ts';
export { resolveSecret, readSecretFile, type ResolvedSecret } from './secret-file.ts';
export { ADMIN_ROUTES } from './admin/server.ts';
