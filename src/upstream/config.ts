import { resolve } from 'node:path';
import type { DpopNonceMode } from '#auth';
import {
  ConfigError,
  deepFreeze,
  type Env,
  type LogFormat,
  logFormat,
  readEnvironment,
  type TracingSettings,
  tracingSettings,
} from '#common';
import { type UpstreamEnvironment, upstreamEnvironment } from './env-schema.ts';

/**
 * The upstream's configuration, read once from the environment of the operator contract
 * (ARCHITECTURE.md "Operator interface"): the variables laid over their defaults
 * (env-schema.ts), validated with every problem reported, then deep-frozen.
 */
export interface UpstreamConfig {
  /** Listen address of the public upstream server (HOST, default 127.0.0.1). */
  readonly host: string;
  readonly upstreamPort: number;
  /** Admin API listen address (ADMIN_HOST): loopback unless an operator decides otherwise. */
  readonly adminHost: string;
  readonly adminPort: number;
  /** The Prometheus /metrics listener (UPSTREAM_METRICS_HOST, UPSTREAM_METRICS_PORT): loopback, 9465 by default. */
  readonly metrics: { readonly host: string; readonly port: number; readonly portIsDefault: boolean };
  /** Absolute DATA_DIR: embedded store, admin-token and feed-token files. */
  readonly dataDir: string;
  /** Absolute ADDRESS_DATA_DIR (default DATA_DIR): holds `address/`, possibly a shared read-only volume. */
  readonly addressDataDir: string;
  readonly databaseUrl: string | undefined;
  /** DATABASE_TIMEOUT_MS: PostgreSQL bound on connecting and on each statement. */
  readonly databaseTimeoutMs: number;
  /** Token issuer identifier and metadata base URL (PUBLIC_URL). */
  readonly publicUrl: string;
  readonly audience: string;
  readonly signingAlg: 'RS256' | 'ES256' | 'EdDSA';
  readonly logLevel: string;
  /** LOG_FORMAT, else `pretty` when stdout is a terminal and `json` otherwise. */
  readonly logFormat: LogFormat;
  /** ADMIN_TOKEN from the environment; unset means "read or generate $DATA_DIR/admin-token". */
  readonly adminToken: string | undefined;
  /** REVOCATION_FEED_TOKEN; unset means "read or generate $DATA_DIR/feed-token". */
  readonly feedToken: string | undefined;
  readonly keyEncryptionKey: string | undefined;
  /** TRUSTED_PROXIES: addresses or CIDRs whose X-Forwarded-For the issuer believes; unset means loopback. */
  readonly trustedProxies: readonly string[] | undefined;
  /** PORTAL_URL: the account portal's public base URL, for invitation links; unset: the admin server's `/portal`. */
  readonly portalUrl: string | undefined;
  /** DPOP_NONCE and DPOP_NONCE_SECRET: server nonces at the token endpoint (RFC 9449 §8). */
  readonly dpopNonce: { readonly mode: DpopNonceMode; readonly secret: string | undefined };
  /** REDIS_URL and REDIS_KEY_PREFIX: where the replicas share their DPoP replay memory; undefined: in memory. */
  readonly dpopReplayRedis: { readonly url: string; readonly keyPrefix: string } | undefined;
  /** OpenTelemetry export (OTEL_EXPORTER_OTLP_ENDPOINT …); undefined: tracing off. */
  readonly tracing: TracingSettings | undefined;
}

/** Next to the gateway's 9464, so that `npm start` serves both. */
const DEFAULT_METRICS_PORT = 9465;

/** Throws `ConfigError` naming every bad variable; never a partial configuration. */
export function loadUpstreamConfig(env: Env = process.env, cwd: string = process.cwd()): UpstreamConfig {
  const read = readEnvironment(upstreamEnvironment, env);
  if (!read.ok) throw new ConfigError(read.error);
  return deepFreeze(upstreamConfig(read.value, env, cwd));
}

/** The upstream's problems with `env`, each naming its variable (`tokengate check-config`). */
export function upstreamConfigProblems(env: Env = process.env): readonly string[] {
  const read = readEnvironment(upstreamEnvironment, env);
  return read.ok ? [] : read.error;
}

/** The defaults that depend on other variables, and the names the rest of the upstream uses. */
function upstreamConfig(v: UpstreamEnvironment, env: Env, cwd: string): UpstreamConfig {
  const publicUrl = v.PUBLIC_URL ?? `http://127.0.0.1:${v.GATEWAY_PORT}`;
  return {
    host: v.HOST,
    upstreamPort: v.UPSTREAM_PORT,
    adminHost: v.ADMIN_HOST,
    adminPort: v.ADMIN_PORT,
    metrics: {
      host: v.UPSTREAM_METRICS_HOST,
      port: v.UPSTREAM_METRICS_PORT ?? DEFAULT_METRICS_PORT,
      portIsDefault: v.UPSTREAM_METRICS_PORT === undefined,
    },
    dataDir: resolve(cwd, v.DATA_DIR),
    addressDataDir: resolve(cwd, v.ADDRESS_DATA_DIR ?? v.DATA_DIR),
    databaseUrl: v.DATABASE_URL,
    databaseTimeoutMs: v.DATABASE_TIMEOUT_MS,
    publicUrl,
    audience: v.TOKEN_AUDIENCE ?? publicUrl,
    signingAlg: v.SIGNING_ALG,
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT ?? logFormat(env),
    adminToken: v.ADMIN_TOKEN,
    feedToken: v.REVOCATION_FEED_TOKEN,
    keyEncryptionKey: v.KEY_ENCRYPTION_KEY,
    trustedProxies: v.TRUSTED_PROXIES,
    portalUrl: v.PORTAL_URL,
    dpopNonce: { mode: v.DPOP_NONCE, secret: v.DPOP_NONCE_SECRET },
    dpopReplayRedis: v.REDIS_URL === undefined ? undefined : { url: v.REDIS_URL, keyPrefix: v.REDIS_KEY_PREFIX },
    tracing: tracingSettings(env, 'tokengate-upstream'),
  };
}
