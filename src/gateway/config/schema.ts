import { DPOP_NONCE_MODES, KEY_SET_DEFAULTS, REVOCATION_SET_DEFAULTS, VERIFIER_DEFAULTS } from '#auth';
import { type Env, SCOPES } from '#common';
import { z } from 'zod';
import { groupName, type RateLimitsConfig, rateLimitsSchema } from '../ratelimit/schema.ts';
import { routeConflicts } from '../routing/conflicts.ts';
import { duration } from './duration.ts';

/**
 * The one schema of `gateway.yaml`: it validates the file and is the TypeScript type of the
 * configuration (`GatewayConfig = z.infer`). Every object is strict (an unknown key is an
 * error, so a typo never silently falls back to a default). The ones that depend on the
 * environment (ports, URLs) come from `env`. Every key carries its documentation (`.describe()`,
 * or `.meta()` with a `defaultText` when the default is not a constant): docs/configuration.md is
 * generated from it by `npm run docs:config`, and a test fails when that page is stale.
 */

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

/** Documentation of a key whose default is not a constant: `defaultText` says where it comes from. */
function documented(description: string, defaultText: string) {
  return { description, defaultText };
}

const scope = z.enum(SCOPES, { error: (issue) => `unknown scope ${JSON.stringify(issue.input)}` });
const routePath = z
  .string()
  .regex(/^\/[A-Za-z0-9\-._~/:*]*$/, 'must be an absolute path: /exact, /prefix/* or /x/:param')
  .refine((p) => !p.startsWith('/internal'), "the upstream's /internal/* routes must never be exposed")
  .refine((p) => !RESERVED.includes(p), "reserved for the gateway's own health endpoints");

const route = z
  .strictObject({
    path: routePath.describe(
      '`/exact`, `/prefix/*` or `/x/:param` (find-my-way syntax); each also matches with a trailing slash ' +
        '(`/exact/`). Refused: any path starting with `/internal`, `/healthz` and `/readyz` (the gateway answers ' +
        'these), a method declared twice on one path, and paths that differ only in parameter names (`/x/:id`, ' +
        '`/x/:itemId`).',
    ),
    methods: z
      .array(z.enum(METHODS))
      .min(1)
      .default(['GET'])
      .describe('Methods served on the path. Other methods get 405 `1042` with `Allow` naming these.'),
    auth: z
      .enum(['bearer', 'none'])
      .describe("`bearer`: a verified token is needed. `none`: forwarded without one (the issuer's own endpoints)."),
    scopes: z
      .array(scope)
      .default([])
      .describe('Scopes the token needs; `[]` accepts any valid token. Only with `auth: bearer`.'),
    match: z
      .enum(['any', 'all'])
      .default('any')
      .describe('`any`: one of `scopes` is enough. `all`: every one is needed.'),
    allowKeySecret: z
      .boolean()
      .default(false)
      .describe(
        'Requests with a `key` parameter and no bearer token pass to the upstream untouched: the upstream checks ' +
          'the key and secret.',
      ),
    errorFields: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        "Extra fields of this route's error bodies, e.g. `completions: []` on the validation API routes. They " +
          'never replace `message`, `error_code` or `success`.',
      ),
    rateLimitGroup: groupName
      .optional()
      .describe(
        "The route's group in `rateLimits`: its calls count against the group's limits and the monthly quota. " +
          'Unset: the route is neither limited nor counted.',
      ),
    errorShape: z
      .enum(['api', 'oauth'])
      .default('api')
      .describe(
        "The body of the gateway's own errors on this route: the documented `{message, error_code, success}` " +
          '(`api`) or RFC 6749 §5.2 `{error, error_description}` (`oauth`, only with `auth: none` and no ' +
          '`errorFields`).',
      ),
  })
  .refine((r) => r.auth === 'bearer' || r.scopes.length === 0, {
    message: 'scopes need auth: bearer',
    path: ['scopes'],
  })
  // A token's refusals have their documented body and RFC 6750 challenge; an OAuth body has no extra fields.
  .refine((r) => r.errorShape === 'api' || r.auth === 'none', {
    message: 'errorShape: oauth needs auth: none (the OAuth endpoints authenticate their clients themselves)',
    path: ['errorShape'],
  })
  .refine((r) => r.errorShape === 'api' || Object.keys(r.errorFields).length === 0, {
    message: 'errorFields extend the documented error body, not errorShape: oauth',
    path: ['errorFields'],
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

/** The shortest secret DPoP nonces are signed with (as the upstream's DPOP_NONCE_SECRET). */
const MIN_NONCE_SECRET = 16;

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
  const metricsHost = setting(env, 'METRICS_HOST') ?? '127.0.0.1';
  // The upstream signs `aud` = TOKEN_AUDIENCE, else PUBLIC_URL: the same default here.
  const tokenAudience = setting(env, 'TOKEN_AUDIENCE');
  // The secret the upstream's issuer signs its nonces with: sharing it lets one nonce serve both.
  const nonceSecret = setting(env, 'DPOP_NONCE_SECRET');
  // The environment's defaults are checked with the file, so that one run reports both: the
  // refinements below run even when the file has other problems (`when`), on whatever parsed.
  /** The file's value at `section.key`, whatever shape the rest of the file has. */
  const fileValue = (c: unknown, section: string, key: string): unknown =>
    (c as Record<string, Record<string, unknown> | undefined> | undefined)?.[section]?.[key];
  // Without the key in the file, the environment gives the value: its problem names the variable.
  const metricsPortProblem = (c: unknown): string | undefined =>
    fileValue(c, 'metrics', 'port') === undefined &&
    metricsPort !== undefined &&
    !port.safeParse(Number(metricsPort)).success
      ? `METRICS_PORT must be a port number (0-65535), not "${metricsPort}"`
      : undefined;
  // UPSTREAM_URL (or UPSTREAM_PORT) gives upstream.url, and the key set and feed URLs derive from
  // it. Named, never echoed: it may carry credentials.
  const upstreamUrlProblem = (c: unknown): string | undefined => {
    if (fileValue(c, 'upstream', 'url') !== upstreamUrl) return undefined;
    const issue = requestUrl.safeParse(upstreamUrl).error?.issues[0];
    if (issue === undefined) return undefined;
    return `${setting(env, 'UPSTREAM_URL') === undefined ? 'UPSTREAM_PORT' : 'UPSTREAM_URL'}: ${issue.message}`;
  };
  const nonceSecretProblem = (c: unknown): string | undefined =>
    fileValue(c, 'dpop', 'nonceSecret') === undefined &&
    nonceSecret !== undefined &&
    nonceSecret.length < MIN_NONCE_SECRET
      ? `DPOP_NONCE_SECRET must be at least ${MIN_NONCE_SECRET} characters long`
      : undefined;
  // DPoP's replay cache lives in the Redis the gateways share even with nothing rate limited: then
  // REDIS_URL, with the rateLimits section's defaults, names it (a replay must fail at every gateway).
  const redisWithoutLimits = rateLimitsSchema(env).safeParse({});
  const replayRedisProblem = (c: unknown): string | undefined =>
    (c as Record<string, unknown> | undefined)?.['rateLimits'] === undefined && !redisWithoutLimits.success
      ? 'REDIS_URL must be a redis:// or rediss:// URL'
      : undefined;
  const publicUrlProblem = (c: unknown): string | undefined =>
    fileValue(c, 'issuer', 'issuer') === undefined && !url.safeParse(publicUrl).success
      ? `PUBLIC_URL must be an http(s) URL, not "${publicUrl}"`
      : undefined;
  return z
    .strictObject({
      listen: z
        .strictObject({
          host: z
            .string()
            .default('127.0.0.1')
            .describe('Address to listen on: `127.0.0.1` keeps the gateway local, `0.0.0.0` listens on all.'),
          port: port
            .default(gatewayPort)
            .meta(documented('Port to listen on (0: any free port).', '`GATEWAY_PORT`, else `8080`')),
        })
        .prefault({})
        .describe('The public listener: the whole public API is served here. Changing it takes a restart.'),
      tls: z
        .strictObject({
          cert: z.string().min(1).describe('Path of the PEM certificate file.'),
          key: z.string().min(1).describe('Path of the PEM private key file.'),
        })
        .optional()
        .describe(
          'When present, the listener is HTTPS with these files; without it, plain HTTP. Both files are read ' +
            'again at every reload; turning TLS on or off takes a restart.',
        ),
      upstream: z
        .strictObject({
          url: requestUrl
            .default(upstreamUrl)
            .meta(
              documented(
                'Base URL of the upstream, http or https, without credentials (`user:password@` would never be ' +
                  'sent). The key set and revocation feed URLs default to paths under it.',
                '`UPSTREAM_URL`, else `http://127.0.0.1:$UPSTREAM_PORT` (`UPSTREAM_PORT` defaults to 3000)',
              ),
            ),
          engine: z
            .enum(['http-proxy-3', 'undici'])
            .default('http-proxy-3')
            .describe(
              "The forwarding engine: `http-proxy-3` (on Node's HTTP client) or `undici` (on undici's connection " +
                'pool, about twice the throughput; see docs/performance.md). Both forward alike, except that ' +
                "undici's response timers tick twice a second, so `responseTimeoutMs` fires up to 1 s late. A " +
                'reload builds the new engine and closes the old one once its requests have finished.',
            ),
          connectTimeoutMs: duration('ms', 1, 60_000, 2_000).describe(
            "Longest wait, in ms, for an upstream connection: a new one's connect, or a free socket when all " +
              '`maxSockets` are busy. Past it the request gets 502 `1050`.',
          ),
          responseTimeoutMs: duration('ms', 1, 600_000, 30_000).describe(
            'Longest silence, in ms, from the upstream once the request is on a socket, new or pooled. Past it ' +
              'the request gets 504 `1051`.',
          ),
          keepAliveSockets: int(1, 10_000)
            .default(256)
            .describe(
              'Idle keep-alive sockets kept open to the upstream (the most recently used is reused first). ' +
                'http-proxy-3 engine only: undici keeps every idle connection until its keep-alive timeout ' +
                "(the upstream's `Keep-Alive` hint less 2 s, else 4 s).",
            ),
          maxSockets: int(1, 100_000)
            .default(1_024)
            .describe('Most sockets open to the upstream at once; further requests wait for a free one.'),
        })
        .prefault({})
        .describe('Where verified requests are forwarded, and how.'),
      issuer: z
        .strictObject({
          /** Default PUBLIC_URL, checked in the transform below so that an error names the variable. */
          issuer: url
            .optional()
            .meta(
              documented(
                'The `iss` every token must carry: the issuer identifier the upstream signs with.',
                '`PUBLIC_URL` without trailing slashes, else `http://127.0.0.1:$GATEWAY_PORT`',
              ),
            ),
          audience: z
            .string()
            .min(1)
            .optional()
            .meta(documented('The `aud` every token must carry.', '`TOKEN_AUDIENCE`, else `issuer.issuer`')),
          jwksUrl: requestUrl
            .optional()
            .meta(
              documented(
                "The issuer's key set (JWKS), without credentials in the URL.",
                '`<upstream.url>/.well-known/jwks.json`',
              ),
            ),
          algorithms: z
            .array(z.enum(['RS256', 'PS256', 'ES256', 'EdDSA']))
            .min(1)
            .default([...KEY_SET_DEFAULTS.algorithms])
            .describe(
              'Signature algorithms accepted: pinned here, never taken from the token. While the issuer switches ' +
                'algorithms, list both.',
            ),
          // At most the 60 s the issuer keeps a revocation past the token's exp (SKEW_SEC): a
          // longer leeway would accept a revoked token again once its entry is forgotten.
          clockToleranceSec: duration('s', 0, 60, VERIFIER_DEFAULTS.clockToleranceSec).describe(
            'Leeway, in seconds, on `exp`, `iat` and `nbf`. At most the 60 s the issuer keeps a revocation past ' +
              '`exp`, so a revoked token is never accepted again.',
          ),
          keySet: z
            .strictObject({
              minRefreshSec: duration('s', 1, 86_400, KEY_SET_DEFAULTS.minMaxAgeSec).describe(
                "Shortest refresh interval, in seconds: the lower clamp of the key set's `max-age`.",
              ),
              maxRefreshSec: duration('s', 1, 86_400, KEY_SET_DEFAULTS.maxMaxAgeSec).describe(
                "Longest refresh interval, in seconds: the upper clamp of the key set's `max-age`.",
              ),
              maxStaleSec: duration('s', 0, 604_800, KEY_SET_DEFAULTS.maxStaleSec).describe(
                'How long, in seconds, the last good keys are still used past their refresh time while the ' +
                  'issuer is unreachable. Past it bearer requests get 503 `1052` and `/readyz` fails.',
              ),
              cooldownSec: duration('s', 0, 3_600, KEY_SET_DEFAULTS.cooldownSec).describe(
                'Least gap, in seconds, between two refetches caused by tokens with an unknown `kid`; unknown ' +
                  'kids are remembered meanwhile.',
              ),
              fetchTimeoutMs: duration('ms', 100, 60_000, KEY_SET_DEFAULTS.fetchTimeoutMs).describe(
                'Timeout, in ms, of one key-set fetch.',
              ),
            })
            .prefault({})
            .describe("The cached key set: refresh, unknown key ids, and the issuer's outages."),
          revocationFeed: z
            .strictObject({
              url: requestUrl
                .optional()
                .meta(
                  documented(
                    'The revocation feed, which the gateway long-polls; no credentials in the URL.',
                    '`<upstream.url>/internal/revocations`',
                  ),
                ),
              token: z
                .string()
                .min(1)
                .optional()
                .meta(
                  documented(
                    'The feed credential, sent as `Authorization: Bearer`. It wins over `tokenFile`.',
                    '`REVOCATION_FEED_TOKEN`, when neither `token` nor `tokenFile` is set',
                  ),
                ),
              tokenFile: z
                .string()
                .min(1)
                .optional()
                .meta(
                  documented(
                    'A file holding the feed credential. The gateway polls for it until it exists (the local ' +
                      'upstream writes `$DATA_DIR/feed-token` on its first start).',
                    '`$DATA_DIR/feed-token` (`DATA_DIR` defaults to `./data`), when neither `token`, `tokenFile` ' +
                      'nor `REVOCATION_FEED_TOKEN` is set',
                  ),
                ),
            })
            .prefault({})
            .describe("The issuer's revocation feed."),
        })
        .prefault({})
        .describe('The token issuer the gateway trusts: what every token must carry, and where keys come from.'),
      caches: z
        .strictObject({
          tokens: z
            .strictObject({
              maxEntries: int(0, 10_000_000)
                .default(VERIFIER_DEFAULTS.tokenCache.maxEntries)
                .describe('Most tokens cached; 0 disables the cache.'),
              maxBytes: int(0, 2 ** 32)
                .default(VERIFIER_DEFAULTS.tokenCache.maxBytes)
                .describe('Most bytes the cache holds (the default is 64 MiB).'),
            })
            .prefault({})
            .describe(
              'Verified tokens, kept until their expiry. A hit still checks expiry, revocation and scope; a token ' +
                'is cached from its second sighting, so a flood of single-use tokens cannot churn the cache.',
            ),
          negative: z
            .strictObject({
              maxEntries: int(0, 10_000_000)
                .default(VERIFIER_DEFAULTS.negativeCache.maxEntries)
                .describe('Most refused tokens remembered; 0 disables the cache.'),
              ttlSec: duration('s', 0, 3_600, VERIFIER_DEFAULTS.negativeCache.ttlSec).describe(
                'How long, in seconds, a refused token is remembered.',
              ),
            })
            .prefault({})
            .describe(
              'Tokens refused for good (format, signature, claims, expiry), remembered so that a replay costs no ' +
                'cryptography.',
            ),
        })
        .prefault({})
        .describe("The verifier's caches."),
      revocation: z
        // At least 5 s: the feed's long poll is held for half the bound (runtime.ts), so a quiet
        // but healthy feed answers well inside it.
        .strictObject({
          maxStalenessSec: duration('s', 5, 86_400, REVOCATION_SET_DEFAULTS.maxStalenessSec).describe(
            'How stale, in seconds, the revocation list may get before `failOpen` decides. The issuer is asked ' +
              'to hold a quiet long poll for half of it, at most 20 s.',
          ),
          failOpen: z
            .boolean()
            .default(REVOCATION_SET_DEFAULTS.failOpen)
            .describe(
              'Past `maxStalenessSec`: `false` answers bearer requests 503 `1053`; `true` keeps accepting tokens ' +
                'against the last list.',
            ),
        })
        .prefault({})
        .describe("The gateway's copy of the revocation list."),
      dpop: z
        .strictObject({
          nonce: z
            .enum(DPOP_NONCE_MODES)
            .default('off')
            .describe(
              "Server nonces for DPoP proofs (RFC 9449 §9). `off`: none are handed out, and a proof's `nonce` is " +
                'ignored. `supported`: every DPoP answer carries `DPoP-Nonce`, and a proof with a nonce that is not ' +
                'current gets 401 `1028`. `required`: a proof without a current nonce gets 401 `1028` too.',
            ),
          nonceSecret: z
            .string()
            .min(MIN_NONCE_SECRET)
            .optional()
            .meta(
              documented(
                'The secret nonces are signed with, at least 16 characters. Gateways (and the issuer) sharing it ' +
                  "accept each other's nonces: several gateways behind a load balancer must share it, and a cluster's " +
                  'workers share one drawn at start when none is set.',
                '`DPOP_NONCE_SECRET`, else random per gateway process',
              ),
            ),
          publicUrl: url
            .optional()
            .meta(
              documented(
                "The base URL clients address the gateway's routes under, which a proof's `htu` is checked " +
                  'against (RFC 9449 §4.3): this base and the request path. Set it when clients reach the gateway ' +
                  'at another host than the issuer or under a path prefix that a proxy in front strips.',
                'the issuer identifier (`issuer.issuer`, else `PUBLIC_URL`)',
              ),
            ),
        })
        .prefault({})
        .describe('DPoP-bound tokens (`Authorization: DPoP`): server nonces and the URL proofs name.'),
      limits: z
        .strictObject({
          maxHeaderSize: int(1_024, 1_048_576)
            .default(16_384)
            .describe('Largest request head, in bytes; larger gets 431 with the `1043` body. Takes a restart.'),
          maxUrlLength: int(64, 1_048_576)
            .default(8_192)
            .describe('Longest request URL, in characters; longer gets 414 with the `1043` body.'),
          maxBodyBytes: int(0, 2 ** 32)
            .default(1_048_576)
            .describe('Largest request body, in bytes (the default is 1 MiB); larger gets 413 `1043`.'),
          headersTimeoutMs: duration('ms', 100, 600_000, 10_000).describe(
            'Time, in ms, a client has to send the request head; at most `requestTimeoutMs`. A slower client ' +
              'gets 408. Takes a restart.',
          ),
          requestTimeoutMs: duration('ms', 100, 3_600_000, 60_000).describe(
            'Time, in ms, a client has to send the whole request (else 408). Takes a restart.',
          ),
          keepAliveTimeoutMs: duration('ms', 100, 600_000, 5_000).describe(
            'How long, in ms, an idle keep-alive connection stays open. Takes a restart.',
          ),
        })
        // Node's server refuses to start with a headers timeout longer than the request timeout.
        .refine((l) => l.headersTimeoutMs <= l.requestTimeoutMs, {
          message: 'must not exceed limits.requestTimeoutMs',
          path: ['headersTimeoutMs'],
        })
        .prefault({})
        .describe('Bounds on what a client may send, and how slowly.'),
      metrics: z
        .strictObject({
          host: z
            .string()
            .default(metricsHost)
            .meta(
              documented(
                'Address of the metrics listener: `0.0.0.0` lets a Prometheus in another container or pod scrape it.',
                '`METRICS_HOST`, else `127.0.0.1`',
              ),
            ),
          port: port
            .optional()
            .meta(
              documented(
                'Port of the metrics listener. When neither this key nor `METRICS_PORT` sets it and 9464 is ' +
                  'taken, a free port is used and a warning names it.',
                '`METRICS_PORT`, else `9464`',
              ),
            ),
        })
        .prefault({})
        .describe('The Prometheus `/metrics` listener, on its own port. Changing it takes a restart.'),
      workers: z
        .union([int(1, 256), z.literal('auto')])
        .default(1)
        .describe(
          'Worker processes of `npm run gateway` (Node cluster): a number, or `auto` for one per core. ' +
            '`npm start` runs one gateway inside its own process. Takes a restart.',
        ),
      drainTimeoutMs: duration('ms', 0, 600_000, 10_000).describe(
        'On SIGTERM or SIGINT, how long, in ms, requests under way may take to finish.',
      ),
      rateLimits: rateLimitsSchema(env)
        .optional()
        .describe(
          'Rate limits per client and per project on route groups, and monthly quotas per project, by plan. ' +
            'Absent: nothing is limited or counted.',
        ),
      routes: z
        .array(route)
        .min(1)
        .superRefine(rejectConflictingRoutes)
        .describe(
          'The route map: the paths served, their methods, and what each needs. Paths no route matches get ' +
            '404 `1041`.',
        ),
    })
    .refine((c) => metricsPortProblem(c) === undefined, {
      path: ['metrics', 'port'],
      error: (issue) => metricsPortProblem(issue.input) ?? '',
      when: () => true,
    })
    .refine((c) => upstreamUrlProblem(c) === undefined, {
      path: ['upstream', 'url'],
      error: (issue) => upstreamUrlProblem(issue.input) ?? '',
      when: () => true,
    })
    .refine((c) => publicUrlProblem(c) === undefined, {
      path: ['issuer', 'issuer'],
      error: (issue) => publicUrlProblem(issue.input) ?? '',
      when: () => true,
    })
    .refine((c) => nonceSecretProblem(c) === undefined, {
      path: ['dpop', 'nonceSecret'],
      error: (issue) => nonceSecretProblem(issue.input) ?? '',
      when: () => true,
    })
    .refine((c) => replayRedisProblem(c) === undefined, {
      path: ['rateLimits', 'redis', 'url'],
      error: (issue) => replayRedisProblem(issue.input) ?? '',
      when: () => true,
    })
    .transform((c) => {
      const envPort = metricsPort === undefined ? undefined : Number(metricsPort);
      const issuer = c.issuer.issuer ?? publicUrl;
      const upstream = c.upstream.url.replace(/\/+$/, '');
      const feed = c.issuer.revocationFeed;
      const explicitCredential = feed.token !== undefined || feed.tokenFile !== undefined;
      return {
        ...c,
        dpop: {
          nonce: c.dpop.nonce,
          nonceSecret: c.dpop.nonceSecret ?? nonceSecret,
          publicUrl: (c.dpop.publicUrl ?? issuer).replace(/\/+$/, ''),
          replayRedis: replayRedisOf(c.rateLimits ?? redisWithoutLimits.data),
        },
        metrics: {
          host: c.metrics.host,
          port: c.metrics.port ?? envPort ?? DEFAULT_METRICS_PORT,
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

/** The Redis DPoP proofs are recorded in, when the gateways share one (`rateLimits.redis`, else REDIS_URL). */
function replayRedisOf(limits: RateLimitsConfig | undefined) {
  const redis = limits?.redis;
  return redis?.url === undefined
    ? undefined
    : { url: redis.url, keyPrefix: redis.keyPrefix, timeoutMs: redis.timeoutMs };
}

export type GatewayConfig = z.infer<ReturnType<typeof gatewaySchema>>;
export type RouteConfig = GatewayConfig['routes'][number];
