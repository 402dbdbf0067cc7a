import { resolve } from 'node:path';
import {
  ADMIN_TOKEN_UNUSABLE,
  isUsableAdminToken,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogFormat,
  logFormat,
  type TracingSettings,
  tracingSettings,
} from '#common';
import { invalidTrustedProxy } from '#issuer';
import { ConfigError } from './config-error.ts';
import { type Env, EnvReader } from './env.ts';

/**
 * The upstream's configuration, read once from the environment of the operator contract
 * (ARCHITECTURE.md "Operator interface"), validated with every problem reported, then frozen.
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
  /** OpenTelemetry export (OTEL_EXPORTER_OTLP_ENDPOINT …); undefined: tracing off. */
  readonly tracing: TracingSettings | undefined;
}

const ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
/** Next to the gateway's 9464, so that `npm start` serves both. */
const DEFAULT_METRICS_PORT = 9465;

export function loadUpstreamConfig(env: Env = process.env, cwd: string = process.cwd()): UpstreamConfig {
  const read = new EnvReader(env);
  const gatewayPort = read.port('GATEWAY_PORT', 8080);
  const publicUrl = read.url('PUBLIC_URL', `http://127.0.0.1:${gatewayPort}`);
  const config: UpstreamConfig = {
    host: read.raw('HOST') ?? '127.0.0.1',
    upstreamPort: read.port('UPSTREAM_PORT', 3000),
    adminHost: read.raw('ADMIN_HOST') ?? '127.0.0.1',
    adminPort: read.port('ADMIN_PORT', 3001),
    metrics: {
      host: read.raw('UPSTREAM_METRICS_HOST') ?? '127.0.0.1',
      port: read.port('UPSTREAM_METRICS_PORT', DEFAULT_METRICS_PORT),
      portIsDefault: read.raw('UPSTREAM_METRICS_PORT') === undefined,
    },
    dataDir: resolve(cwd, read.raw('DATA_DIR') ?? './data'),
    databaseUrl: databaseUrl(read),
    databaseTimeoutMs: read.milliseconds('DATABASE_TIMEOUT_MS', 5000, 100, 600_000),
    publicUrl,
    audience: read.raw('TOKEN_AUDIENCE') ?? publicUrl,
    signingAlg: read.oneOf('SIGNING_ALG', ALGORITHMS, 'RS256'),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: read.oneOf('LOG_FORMAT', LOG_FORMATS, logFormat(env)),
    adminToken: adminToken(read),
    feedToken: read.secret('REVOCATION_FEED_TOKEN', 16),
    keyEncryptionKey: read.secret('KEY_ENCRYPTION_KEY', 16),
    trustedProxies: trustedProxies(read),
    tracing: tracingSettings(env, 'tokengate-upstream'),
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return Object.freeze(config);
}

/** Any length (start-up warns below 16 characters), but one word: see ADMIN_TOKEN_UNUSABLE. */
function adminToken(read: EnvReader): string | undefined {
  const value = read.raw('ADMIN_TOKEN');
  if (value !== undefined && !isUsableAdminToken(value)) read.problems.push(ADMIN_TOKEN_UNUSABLE);
  return value;
}

/** DATABASE_URL carries a password: checked for shape only, never echoed in a message. */
function databaseUrl(read: EnvReader): string | undefined {
  const value = read.raw('DATABASE_URL');
  if (value === undefined) return undefined;
  if (!/^postgres(ql)?:\/\/\S+$/.test(value)) {
    read.problems.push('DATABASE_URL: must be a postgres:// or postgresql:// connection string');
  } else if (!isWholeUrl(value)) {
    read.problems.push(
      'DATABASE_URL: not a valid URL (percent-encode reserved characters in the password: / as %2F, # as %23, ? as %3F; or pass the password in PGPASSWORD)',
    );
  }
  return value;
}

/**
 * Parsed as pg parses it (a WHATWG URL; `user@/db`, with the socket in ?host=, counts). A
 * reserved character in the password ends the authority early: the rest then fails to parse
 * (pg's bare "Invalid URL"), or, when only digits precede it (read as a port), leaves the '@'
 * in the path or fragment and pg would connect to the user name as a host.
 */
function isWholeUrl(value: string): boolean {
  const url = URL.parse(value) ?? URL.parse(value.replace('@/', '@localhost/'));
  return url !== null && !url.pathname.includes('@') && !url.hash.includes('@');
}

/** Comma-separated addresses or CIDRs, checked here so a typo stops start-up with the variable's name. */
function trustedProxies(read: EnvReader): readonly string[] | undefined {
  const value = read.raw('TRUSTED_PROXIES');
  if (value === undefined) return undefined;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = invalidTrustedProxy(entries);
  if (entries.length === 0 || bad !== undefined) {
    const got = bad === undefined ? value : bad;
    read.problems.push(
      `TRUSTED_PROXIES: must be comma-separated IP addresses or CIDRs such as 10.0.0.0/8 (got "${got}")`,
    );
  }
  return Object.freeze(entries);
}
