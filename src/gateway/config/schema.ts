import { SCOPES } from '#common';
import { z } from 'zod';
import { routeConflicts } from '../routing/conflicts.ts';

/**
 * The one schema of `gateway.yaml`: it validates the file and is the TypeScript type of the
 * configuration (`GatewayConfig = z.infer`). Every object is strict (an unknown key is an
 * error, so a typo never silently falls back to a default). Defaults are documented here and
 * in the README; the ones that depend on the environment (ports, URLs) come from `env`.
 */
export type Env = Readonly<Record<string, string | undefined>>;

const int = (min: number, max: number) => z.int().min(min).max(max);
const port = int(0, 65_535);
const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
/**
 * A URL the gateway sends requests to. Credentials in it (`http://user:pw@host`) would never be
 * sent: fetch refuses such a URL and http-proxy-3 drops them, so the key set would never load or
 * the upstream would refuse every request, far from the cause. Refused here, by name.
 */
const requestUrl = url.refine((value) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value), {
  error: 'must not carry credentials (user:password@): they would not be sent',
});
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** The gateway answers these itself; a route may not shadow them. */
const RESERVED = ['/healthz', '/readyz'];

const scope = z.enum(SCOPES, { error: (issue) => `unknown scope ${JSON.stringify(issue.input)}` });
const routePath = z
  .string()
  .regex(/^\/[A-Za-z0-9\-._~/:*]*$/, 'must be an absolute path: /exact, /prefix/* or /x/:param')
  .refine((p) => !p.startsWith('/internal'), "the upstream's /internal/* routes must never be exposed")
  .refine((p) => !RESERVED.includes(p), "reserved for the gateway's own health endpoints");

const route = z
  .strictObject({
    path: routePath,
    methods: z.array(z.enum(METHODS)).min(1).default(['GET']),
    auth: z.enum(['bearer', 'none']),
    scopes: z.array(scope).default([]),
    match: z.enum(['any', 'all']).default('any'),
    /** Requests with a `key` parameter and no bearer token pass to the upstream untouched. */
    allowKeySecret: z.boolean().default(false),
    /** Extra fields merged into this route's error bodies (autocomplete: `completions: []`). */
    errorFields: z.record(z.string(), z.unknown()).default({}),
  })
  .refine((r) => r.auth === 'bearer' || r.scopes.length === 0, {
    message: 'scopes need auth: bearer',
    path: ['scopes'],
  });

function rejectConflictingRoutes(
  routes: ReadonlyArray<{ path: string; methods: readonly string[] }>,
  ctx: z.RefinementCtx,
): void {
  for (const { index, message } of routeConflicts(routes))
    ctx.addIssue({ code: 'custom', message, path: [index, 'path'] });
}

/**
 * An environment setting read as the upstream reads it (src/upstream/env.ts): trimmed, and empty
 * means unset. Otherwise `PUBLIC_URL=` or a stray space gave the gateway another issuer than the
 * one the upstream signs with, and every token was refused.
 */
function setting(env: Env, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

/** The Prometheus exporters' customary port for a Node.js service. */
const DEFAULT_METRICS_PORT = 9464;

export function gatewaySchema(env: Env) {
  const gatewayPort = Number(setting(env, 'GATEWAY_PORT') ?? 8080);
  const upstreamUrl = setting(env, 'UPSTREAM_URL') ?? `http://127.0.0.1:${setting(env, 'UPSTREAM_PORT') ?? 3000}`;
  // The upstream's `iss` is PUBLIC_URL without trailing slashes: the expected issuer must be the same string.
  const publicUrl = (setting(env, 'PUBLIC_URL') ?? `http://127.0.0.1:${gatewayPort}`).replace(/\/+$/, '');
  const feedToken = setting(env, 'REVOCATION_FEED_TOKEN');
  const feedTokenFile = feedToken ? undefined : `${setting(env, 'DATA_DIR') ?? './data'}/feed-token`;
  const metricsPort = setting(env, 'METRICS_PORT');
  // The upstream signs `aud` = TOKEN_AUDIENCE, else PUBLIC_URL: the same default here.
  const tokenAudience = setting(env, 'TOKEN_AUDIENCE');
  return z
    .strictObject({
      listen: z.strictObject({ host: z.string().default('127.0.0.1'), port: port.default(gatewayPort) }).prefault({}),
      /** PEM files; when present the listener is HTTPS. */
      tls: z.strictObject({ cert: z.string().min(1), key: z.string().min(1) }).optional(),
      upstream: z
        .strictObject({
          url: requestUrl.default(upstreamUrl),
          connectTimeoutMs: int(1, 60_000).default(2_000),
          responseTimeoutMs: int(1, 600_000).default(30_000),
          /** Keep-alive sockets kept open to the upstream. */
          keepAliveSockets: int(1, 10_000).default(256),
          maxSockets: int(1, 100_000).default(1_024),
        })
        .prefault({}),
      issuer: z
        .strictObject({
          /** Default PUBLIC_URL, checked in the transform below so that an error names the variable. */
          issuer: url.optional(),
          audience: z.string().min(1).optional(),
          jwksUrl: requestUrl.optional(),
          algorithms: z
            .array(z.enum(['RS256', 'PS256', 'ES256', 'EdDSA']))
            .min(1)
            .default(['RS256']),
          // At most the 60 s the issuer keeps a revocation past the token's exp (SKEW_SEC): a
          // longer leeway would accept a revoked token again once its entry is forgotten.
          clockToleranceSec: int(0, 60).default(5),
          keySet: z
            .strictObject({
              minRefreshSec: int(1, 86_400).default(30),
              maxRefreshSec: int(1, 86_400).default(3_600),
              maxStaleSec: int(0, 604_800).default(3_600),
              cooldownSec: int(0, 3_600).default(30),
              fetchTimeoutMs: int(100, 60_000).default(5_000),
            })
            .prefault({}),
          revocationFeed: z
            .strictObject({
              url: requestUrl.optional(),
              token: z.string().min(1).optional(),
              tokenFile: z.string().min(1).optional(),
            })
            .prefault({}),
        })
        .prefault({}),
      caches: z
        .strictObject({
          tokens: z
            .strictObject({
              maxEntries: int(0, 10_000_000).default(100_000),
              maxBytes: int(0, 2 ** 32).default(64 * 2 ** 20),
            })
            .prefault({}),
          negative: z
            .strictObject({ maxEntries: int(0, 10_000_000).default(10_000), ttlSec: int(0, 3_600).default(30) })
            .prefault({}),
        })
        .prefault({}),
      revocation: z
        // At least 5 s: the feed's long poll is held for half the bound (runtime.ts), so a quiet
        // but healthy feed answers well inside it.
        .strictObject({ maxStalenessSec: int(5, 86_400).default(30), failOpen: z.boolean().default(false) })
        .prefault({}),
      limits: z
        .strictObject({
          maxHeaderSize: int(1_024, 1_048_576).default(16_384),
          maxUrlLength: int(64, 1_048_576).default(8_192),
          maxBodyBytes: int(0, 2 ** 32).default(1_048_576),
          headersTimeoutMs: int(100, 600_000).default(10_000),
          requestTimeoutMs: int(100, 3_600_000).default(60_000),
          keepAliveTimeoutMs: int(100, 600_000).default(5_000),
        })
        // Node's server refuses to start with a headers timeout longer than the request timeout.
        .refine((l) => l.headersTimeoutMs <= l.requestTimeoutMs, {
          message: 'must not exceed limits.requestTimeoutMs',
          path: ['headersTimeoutMs'],
        })
        .prefault({}),
      metrics: z.strictObject({ host: z.string().default('127.0.0.1'), port: port.optional() }).prefault({}),
      workers: z.union([int(1, 256), z.literal('auto')]).default(1),
      drainTimeoutMs: int(0, 600_000).default(10_000),
      routes: z.array(route).min(1).superRefine(rejectConflictingRoutes),
    })
    .transform((c, ctx) => {
      const envPort = metricsPort === undefined ? undefined : port.safeParse(Number(metricsPort));
      if (c.metrics.port === undefined && envPort?.success === false) {
        ctx.addIssue({
          code: 'custom',
          path: ['metrics', 'port'],
          message: `METRICS_PORT must be a port number (0-65535), not "${metricsPort}"`,
        });
        return z.NEVER;
      }
      // A default is not checked by the schema: without upstream.url in the file, UPSTREAM_URL (or
      // UPSTREAM_PORT) gives the URL, and the key set and feed URLs derive from it. Named, never echoed.
      const upstreamIssue = requestUrl.safeParse(c.upstream.url).error?.issues[0];
      if (upstreamIssue !== undefined) {
        const variable = setting(env, 'UPSTREAM_URL') === undefined ? 'UPSTREAM_PORT' : 'UPSTREAM_URL';
        ctx.addIssue({ code: 'custom', path: ['upstream', 'url'], message: `${variable}: ${upstreamIssue.message}` });
        return z.NEVER;
      }
      if (c.issuer.issuer === undefined && !url.safeParse(publicUrl).success) {
        ctx.addIssue({
          code: 'custom',
          path: ['issuer', 'issuer'],
          message: `PUBLIC_URL must be an http(s) URL, not "${publicUrl}"`,
        });
        return z.NEVER;
      }
      const issuer = c.issuer.issuer ?? publicUrl;
      const upstream = c.upstream.url.replace(/\/+$/, '');
      const feed = c.issuer.revocationFeed;
      const explicitCredential = feed.token !== undefined || feed.tokenFile !== undefined;
      return {
        ...c,
        metrics: {
          host: c.metrics.host,
          port: c.metrics.port ?? envPort?.data ?? DEFAULT_METRICS_PORT,
          /** Neither the file nor METRICS_PORT chose the port: another free one will do if it is taken (start.ts). */
          portIsDefault: c.metrics.port === undefined && metricsPort === undefined,
        },
        issuer: {
          ...c.issuer,
          issuer,
          audience: c.issuer.audience ?? tokenAudience ?? issuer,
          jwksUrl: c.issuer.jwksUrl ?? `${upstream}/.well-known/jwks.json`,
          revocationFeed: {
            url: feed.url ?? `${upstream}/internal/revocations`,
            token: explicitCredential ? feed.token : feedToken,
            tokenFile: explicitCredential ? feed.tokenFile : feedTokenFile,
          },
        },
      };
    });
}

export type GatewayConfig = z.infer<ReturnType<typeof gatewaySchema>>;
export type RouteConfig = GatewayConfig['routes'][number];
