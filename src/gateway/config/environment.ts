import { type ConfigProblem, type Env, setting } from '#common';
import { redisUrl } from '../ratelimit/schema.ts';
import { port, requestUrl, url } from './file/values.ts';
import { MIN_NONCE_SECRET } from './file/verification.ts';

/**
 * The environment variables that stand in for keys `gateway.yaml` leaves unset, read once and
 * as the upstream reads them (trimmed, empty means unset: `setting`). Otherwise `PUBLIC_URL=` or
 * a stray space gave the gateway another issuer than the one the upstream signs with, and every
 * token was refused.
 */
export interface GatewayEnvironment {
  /** GATEWAY_PORT, else 8080: `listen.port`, and the port of the default issuer URL. */
  readonly gatewayPort: number;
  /** GATEWAY_PORT as written, to name it when it is not a port. */
  readonly gatewayPortText: string | undefined;
  /** Whether PUBLIC_URL was given (else the issuer URL derives from GATEWAY_PORT). */
  readonly publicUrlSet: boolean;
  /** UPSTREAM_URL, else `http://127.0.0.1:$UPSTREAM_PORT`: `upstream.url`. */
  readonly upstreamUrl: string;
  /** The variable `upstreamUrl` comes from, for its problem (the URL itself is never echoed). */
  readonly upstreamUrlFrom: 'UPSTREAM_URL' | 'UPSTREAM_PORT';
  /** The upstream's `iss`: PUBLIC_URL without trailing slashes, else `http://127.0.0.1:$GATEWAY_PORT`. */
  readonly publicUrl: string;
  /** TOKEN_AUDIENCE: the upstream signs `aud` with it, else with PUBLIC_URL. */
  readonly tokenAudience: string | undefined;
  /** REVOCATION_FEED_TOKEN. */
  readonly feedToken: string | undefined;
  /** `$DATA_DIR/feed-token`, where the local upstream writes the feed credential. */
  readonly feedTokenFile: string;
  /** METRICS_HOST, else 127.0.0.1. */
  readonly metricsHost: string;
  /** METRICS_PORT as written (checked only where it is used). */
  readonly metricsPort: string | undefined;
  /** DPOP_NONCE_SECRET: the upstream's issuer signs its nonces with it, so one nonce serves both. */
  readonly nonceSecret: string | undefined;
  /** REDIS_URL. */
  readonly redisUrl: string | undefined;
}

export function readGatewayEnvironment(env: Env): GatewayEnvironment {
  const gatewayPortText = setting(env, 'GATEWAY_PORT');
  const gatewayPort = Number(gatewayPortText ?? 8080);
  const upstreamUrl = setting(env, 'UPSTREAM_URL');
  return {
    gatewayPort,
    gatewayPortText,
    publicUrlSet: setting(env, 'PUBLIC_URL') !== undefined,
    upstreamUrl: upstreamUrl ?? `http://127.0.0.1:${setting(env, 'UPSTREAM_PORT') ?? 3000}`,
    upstreamUrlFrom: upstreamUrl === undefined ? 'UPSTREAM_PORT' : 'UPSTREAM_URL',
    // The upstream's `iss` is PUBLIC_URL without trailing slashes: the expected issuer must be the same string.
    publicUrl: (setting(env, 'PUBLIC_URL') ?? `http://127.0.0.1:${gatewayPort}`).replace(/\/+$/, ''),
    tokenAudience: setting(env, 'TOKEN_AUDIENCE'),
    feedToken: setting(env, 'REVOCATION_FEED_TOKEN'),
    feedTokenFile: `${setting(env, 'DATA_DIR') ?? './data'}/feed-token`,
    metricsHost: setting(env, 'METRICS_HOST') ?? '127.0.0.1',
    metricsPort: setting(env, 'METRICS_PORT'),
    nonceSecret: setting(env, 'DPOP_NONCE_SECRET'),
    redisUrl: setting(env, 'REDIS_URL'),
  };
}

/** The keys of the file a variable stands in for: the variable is checked only when its key is unset. */
export interface EnvironmentBackedKeys {
  readonly listen?: { readonly port?: unknown };
  readonly metrics?: { readonly port?: unknown };
  readonly upstream?: { readonly url?: unknown };
  readonly issuer?: { readonly issuer?: unknown };
  readonly dpop?: { readonly nonceSecret?: unknown };
  readonly rateLimits?: { readonly redis?: { readonly url?: unknown } };
}

/**
 * What is wrong with the variables the file leaves a value to, each on the key it stands in for
 * and naming the variable. Checked with the file, so that one run reports both.
 */
export function environmentProblems(e: GatewayEnvironment, file: EnvironmentBackedKeys): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const problem = (path: string[], message: string) => problems.push({ path, message });
  if (file.metrics?.port === undefined && e.metricsPort !== undefined && !port.safeParse(Number(e.metricsPort)).success)
    problem(['metrics', 'port'], `METRICS_PORT must be a port number (0-65535), not "${e.metricsPort}"`);
  // The key set and feed URLs derive from it. Named, never echoed: it may carry credentials.
  const upstreamIssue = requestUrl.safeParse(e.upstreamUrl).error?.issues[0];
  if (file.upstream?.url === undefined && upstreamIssue !== undefined)
    problem(['upstream', 'url'], `${e.upstreamUrlFrom}: ${upstreamIssue.message}`);
  // Without PUBLIC_URL the issuer URL derives from GATEWAY_PORT too: a bad one is named once, on
  // the first key that uses it, never as a PUBLIC_URL problem.
  const badGatewayPort = e.gatewayPortText !== undefined && !port.safeParse(e.gatewayPort).success;
  const issuerFromPort = file.issuer?.issuer === undefined && !e.publicUrlSet;
  const portMessage = `GATEWAY_PORT must be a port number (0-65535), not "${e.gatewayPortText}"`;
  if (badGatewayPort && file.listen?.port === undefined) problem(['listen', 'port'], portMessage);
  else if (badGatewayPort && issuerFromPort) problem(['issuer', 'issuer'], portMessage);
  const derivedFromBadPort = issuerFromPort && badGatewayPort;
  if (file.issuer?.issuer === undefined && !derivedFromBadPort && !url.safeParse(e.publicUrl).success)
    problem(['issuer', 'issuer'], `PUBLIC_URL must be an http(s) URL, not "${e.publicUrl}"`);
  if (file.dpop?.nonceSecret === undefined && e.nonceSecret !== undefined && e.nonceSecret.length < MIN_NONCE_SECRET)
    problem(['dpop', 'nonceSecret'], `DPOP_NONCE_SECRET must be at least ${MIN_NONCE_SECRET} characters long`);
  // DPoP's replay cache uses it even with no rateLimits section: a bad one is refused either way.
  if (file.rateLimits?.redis?.url === undefined && e.redisUrl !== undefined && !redisUrl.safeParse(e.redisUrl).success)
    problem(['rateLimits', 'redis', 'url'], 'REDIS_URL must be a redis:// or rediss:// URL');
  return problems;
}

/** The keys of a file that did not validate, read as far as they can be; anything else is absent. */
export function environmentBackedKeysOf(raw: unknown): EnvironmentBackedKeys {
  const at = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return {
    listen: { port: at(at(raw, 'listen'), 'port') },
    metrics: { port: at(at(raw, 'metrics'), 'port') },
    upstream: { url: at(at(raw, 'upstream'), 'url') },
    issuer: { issuer: at(at(raw, 'issuer'), 'issuer') },
    dpop: { nonceSecret: at(at(raw, 'dpop'), 'nonceSecret') },
    rateLimits: { redis: { url: at(at(at(raw, 'rateLimits'), 'redis'), 'url') } },
  };
}
