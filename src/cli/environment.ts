/**
 * The environment variables the commands read, each with one line for `--help`. The full
 * reference (defaults, which process reads each) is docs/configuration.md; a test checks that
 * every variable named here is there too.
 */
export const ENVIRONMENT: Readonly<Record<string, string>> = {
  GATEWAY_CONFIG: 'the gateway configuration file (default config/gateway.yaml)',
  GATEWAY_HOST: 'the gateway listen address, through config/gateway.yaml (default 127.0.0.1)',
  GATEWAY_PORT: 'the gateway port (default 8080); also the default PUBLIC_URL',
  GATEWAY_WORKERS: 'gateway worker processes, or auto, through config/gateway.yaml (default 1)',
  UPSTREAM_URL: 'where the gateway forwards (default http://127.0.0.1:$UPSTREAM_PORT)',
  UPSTREAM_PORT: 'the upstream port (default 3000)',
  HOST: 'the upstream listen address (default 127.0.0.1)',
  ADMIN_HOST: 'the admin API listen address (default 127.0.0.1)',
  ADMIN_PORT: 'the admin API and portal port (default 3001)',
  ADMIN_URL: 'where admin commands are sent (default http://127.0.0.1:$ADMIN_PORT)',
  ADMIN_TOKEN: 'the admin API credential (default: the file $DATA_DIR/admin-token)',
  PUBLIC_URL: 'the base URL clients use, and the token issuer (default http://127.0.0.1:$GATEWAY_PORT)',
  TOKEN_AUDIENCE: 'the aud of every token (default PUBLIC_URL)',
  DATA_DIR: 'embedded store, admin-token, feed-token and address data (default ./data)',
  ADDRESS_DATA_DIR: 'where address data lives when not in DATA_DIR, e.g. a volume replicas share (default DATA_DIR)',
  DATABASE_URL: 'PostgreSQL instead of the embedded store',
  DATABASE_TIMEOUT_MS: 'PostgreSQL bound on connecting and on each statement (default 5000)',
  SIGNING_ALG: 'RS256, ES256 or EdDSA, for new signing keys (default RS256)',
  KEY_ENCRYPTION_KEY: 'encrypts private signing keys at rest (at least 16 characters)',
  REVOCATION_FEED_TOKEN: 'the revocation feed credential (default: the file $DATA_DIR/feed-token)',
  TRUSTED_PROXIES: 'gateways whose X-Forwarded-For the issuer believes (default loopback)',
  EMAIL_DNS_SERVERS: 'resolvers of the email MX lookup (default: the system resolvers)',
  EMAIL_DNS_TIMEOUT_MS: 'deadline of the email MX lookup, in ms (default 1500)',
  METRICS_HOST: 'the gateway metrics listen address (default 127.0.0.1)',
  METRICS_PORT: 'the gateway metrics port (default 9464)',
  UPSTREAM_METRICS_HOST: 'the upstream metrics listen address (default 127.0.0.1)',
  UPSTREAM_METRICS_PORT: 'the upstream metrics port (default 9465)',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'OTLP/HTTP collector for traces (unset: no tracing, no SDK loaded)',
  OTEL_SERVICE_NAME: 'the service name of the spans (default tokengate-gateway, tokengate-upstream)',
  OTEL_TRACES_SAMPLER: 'always_on, always_off, traceidratio, or parentbased_… (default parentbased_always_on)',
  OTEL_TRACES_SAMPLER_ARG: 'the traceidratio sampling ratio, 0 to 1 (default 1)',
  LOG_LEVEL: 'fatal, error, warn, info, debug, trace or silent (default info)',
  LOG_FORMAT: 'json or pretty (default: pretty on a terminal, json otherwise)',
};

export type EnvironmentName = keyof typeof ENVIRONMENT;
