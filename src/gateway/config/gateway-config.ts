import type { DpopNonceMode } from '#auth';
import type { RateLimitsConfig } from '../ratelimit/schema.ts';
import type { RouteConfig } from './file/routes.ts';
import type { GatewayFile } from './schema.ts';

export type { RouteConfig };

/** The Redis DPoP proofs are recorded in, when the gateways share one (`rateLimits.redis`, else REDIS_URL). */
export interface ReplayRedis {
  readonly url: string;
  readonly keyPrefix: string;
  readonly timeoutMs: number;
}

type FileIssuer = GatewayFile['issuer'];

/**
 * The configuration a gateway runs with (resolve.ts): the file with the environment applied and
 * every derived value filled in, so no consumer reads the environment or works out a default.
 * Deep-frozen.
 */
export type GatewayConfig = Omit<GatewayFile, 'listen' | 'upstream' | 'issuer' | 'dpop' | 'metrics'> & {
  listen: Omit<GatewayFile['listen'], 'port'> & { port: number };
  upstream: Omit<GatewayFile['upstream'], 'url'> & { url: string };
  issuer: Omit<FileIssuer, 'issuer' | 'audience' | 'jwksUrl' | 'revocationFeed'> & {
    issuer: string;
    audience: string;
    jwksUrl: string;
    /** At least one of `token` and `tokenFile` is set; `token` wins. */
    revocationFeed: { url: string; token: string | undefined; tokenFile: string | undefined };
  };
  dpop: {
    nonce: DpopNonceMode;
    nonceSecret: string | undefined;
    /** Without trailing slashes. */
    publicUrl: string;
    replayRedis: ReplayRedis | undefined;
  };
  metrics: {
    host: string;
    port: number;
    /** Neither the file nor METRICS_PORT chose the port: another free one will do if it is taken (start.ts). */
    portIsDefault: boolean;
  };
  rateLimits?: RateLimitsConfig;
};
