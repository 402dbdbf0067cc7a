import { type ConfigProblem, deepFreeze, type Env, failure, type Result, success } from '#common';
import { type RateLimitsConfig, rateLimitsSchema } from '../ratelimit/schema.ts';
import { environmentProblems, type GatewayEnvironment, readGatewayEnvironment } from './environment.ts';
import type { GatewayConfig, ReplayRedis } from './gateway-config.ts';
import type { GatewayFile } from './schema.ts';

/** The Prometheus exporters' customary port for a Node.js service. */
const DEFAULT_METRICS_PORT = 9464;

/** The `rateLimits` section's defaults: DPoP's replay cache takes REDIS_URL with them when the file has none. */
const RATE_LIMIT_DEFAULTS = rateLimitsSchema.parse({});

/**
 * The second step of loading, after the file schema: applies the environment to the keys the
 * file leaves unset, derives the values that follow from others (the key set and feed URLs from
 * the upstream, the audience from the issuer …) and freezes the result. A variable that cannot
 * stand in for its key is a problem placed on that key.
 */
export function resolve(file: GatewayFile, env: Env): Result<GatewayConfig, readonly ConfigProblem[]> {
  const e = readGatewayEnvironment(env);
  const issuer = issuerOf(file, e);
  const problems = [...environmentProblems(e, file), ...sharedIdentifiers(file, issuer.issuer)];
  if (problems.length > 0) return failure(problems);
  const rateLimits = file.rateLimits && withRedis(file.rateLimits, e.redisUrl);
  return success(
    deepFreeze({
      ...file,
      listen: { ...file.listen, port: file.listen.port ?? e.gatewayPort },
      upstream: { ...file.upstream, url: file.upstream.url ?? e.upstreamUrl },
      issuer,
      dpop: {
        nonce: file.dpop.nonce,
        nonceSecret: file.dpop.nonceSecret ?? e.nonceSecret,
        publicUrl: (file.dpop.publicUrl ?? file.issuer.issuer ?? e.publicUrl).replace(/\/+$/, ''),
        replayRedis: replayRedisOf(rateLimits ?? withRedis(RATE_LIMIT_DEFAULTS, e.redisUrl)),
      },
      metrics: {
        host: file.metrics.host ?? e.metricsHost,
        port: file.metrics.port ?? (e.metricsPort === undefined ? DEFAULT_METRICS_PORT : Number(e.metricsPort)),
        portIsDefault: file.metrics.port === undefined && e.metricsPort === undefined,
      },
      ...(rateLimits === undefined ? {} : { rateLimits }),
    }),
  );
}

function issuerOf(file: GatewayFile, e: GatewayEnvironment): GatewayConfig['issuer'] {
  const issuer = file.issuer.issuer ?? e.publicUrl;
  const upstream = (file.upstream.url ?? e.upstreamUrl).replace(/\/+$/, '');
  const feed = file.issuer.revocationFeed;
  const fromFile = feed.token !== undefined || feed.tokenFile !== undefined;
  return {
    ...file.issuer,
    issuer,
    // The upstream signs `aud` = TOKEN_AUDIENCE, else PUBLIC_URL: the same default here.
    audience: file.issuer.audience ?? e.tokenAudience ?? issuer,
    jwksUrl: file.issuer.jwksUrl ?? `${upstream}/.well-known/jwks.json`,
    revocationFeed: {
      url: feed.url ?? `${upstream}/internal/revocations`,
      token: fromFile ? feed.token : e.feedToken,
      tokenFile: fromFile ? feed.tokenFile : e.feedToken === undefined ? e.feedTokenFile : undefined,
    },
  };
}

/**
 * An external issuer with the gateway's own `iss` would make a token's issuer ambiguous: its
 * keys could stand in for tokengate's, and its tokens would skip the revocation list.
 */
function sharedIdentifiers(file: GatewayFile, own: string): ConfigProblem[] {
  return file.externalIssuers.flatMap((external, index) =>
    external.issuer.replace(/\/+$/, '') === own.replace(/\/+$/, '')
      ? [
          {
            path: ['externalIssuers', index, 'issuer'],
            message: `is the gateway's own issuer (${own}): tokengate's tokens are checked by the issuer section`,
          },
        ]
      : [],
  );
}

/** The section with REDIS_URL standing in for an unset `redis.url`. */
function withRedis(limits: RateLimitsConfig, envUrl: string | undefined): RateLimitsConfig {
  return { ...limits, redis: { ...limits.redis, url: limits.redis.url ?? envUrl } };
}

function replayRedisOf({ redis }: RateLimitsConfig): ReplayRedis | undefined {
  return redis.url === undefined
    ? undefined
    : { url: redis.url, keyPrefix: redis.keyPrefix, timeoutMs: redis.timeoutMs };
}
