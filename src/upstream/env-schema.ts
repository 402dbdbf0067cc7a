import {
  ADMIN_TOKEN_RULE,
  httpUrl,
  isUsableAdminToken,
  LOG_FORMATS,
  LOG_LEVELS,
  milliseconds,
  oneOf,
  portNumber,
  secret,
  variable,
} from '#common';
import { DPOP_NONCE_MODES } from '#auth';
import { invalidTrustedProxy } from '#issuer';
import { emailEnvironment } from '#validation';
import { z } from 'zod';

/**
 * Every environment variable the upstream reads, in one schema: its rule, its default and its
 * documentation (docs/configuration.md's upstream table is generated from it by
 * `npm run docs:config`). Validated in one pass by `loadUpstreamConfig`, so every bad value is
 * reported at once, by name. A default that depends on another variable (`PUBLIC_URL` on
 * `GATEWAY_PORT`) is applied by `loadUpstreamConfig`; the schema leaves it unset.
 */
const UP = ['upstream'];
const UP_GATEWAY = ['upstream', 'gateway'];
const UP_CLI = ['upstream', 'CLI'];

/** A host name or address to listen on. */
const host = z.string();

/** Shape only: a URL with a password must never be quoted in a problem. */
const databaseUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\/\S+$/, { error: 'must be a postgres:// or postgresql:// connection string', abort: true })
  .refine(isWholeUrl, {
    error:
      'not a valid URL (percent-encode reserved characters in the password: / as %2F, # as %23, ? as %3F; or pass the password in PGPASSWORD)',
  });

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

/** Comma-separated addresses or CIDRs; a bad entry is named (an address is no secret). */
const entries = (value: string): string[] =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
const trustedProxies = z
  .string()
  .superRefine((value, ctx) => {
    const list = entries(value);
    const bad = invalidTrustedProxy(list);
    if (list.length > 0 && bad === undefined) return;
    ctx.addIssue({
      code: 'custom',
      message: `must be comma-separated IP addresses or CIDRs such as 10.0.0.0/8 (got "${bad ?? value}")`,
    });
  })
  .transform(entries);

export const upstreamEnvironment = z.object({
  GATEWAY_PORT: variable(portNumber.default(8080), {
    readBy: UP_GATEWAY,
    defaultText: '`8080`',
    description: "The gateway's port; also the default `PUBLIC_URL`.",
  }),
  PUBLIC_URL: variable(httpUrl.optional(), {
    readBy: UP_GATEWAY,
    defaultText: '`http://127.0.0.1:$GATEWAY_PORT`',
    description: 'The base URL clients use, and the token issuer (below).',
  }),
  PORTAL_URL: variable(httpUrl.optional(), {
    readBy: UP,
    defaultText: "the admin server's URL + `/portal`",
    description:
      "The account portal's public base URL: invitation links start with it, and passkeys belong to its host and origin (a loopback IP is served as `localhost`).",
  }),
  HOST: variable(host.default('127.0.0.1'), {
    readBy: UP,
    defaultText: '`127.0.0.1`',
    description: 'Listen address of the upstream.',
  }),
  UPSTREAM_PORT: variable(portNumber.default(3000), {
    readBy: ['upstream', 'gateway'],
    defaultText: '`3000`',
    description: 'The upstream: issuer, validation API, health, revocation feed.',
  }),
  ADMIN_HOST: variable(host.default('127.0.0.1'), {
    readBy: UP,
    defaultText: '`127.0.0.1`',
    description: 'Listen address of the admin API; a warning is logged beyond loopback.',
  }),
  ADMIN_PORT: variable(portNumber.default(3001), {
    readBy: UP_CLI,
    defaultText: '`3001`',
    description: 'The admin API and the account portal.',
  }),
  UPSTREAM_METRICS_HOST: variable(host.default('127.0.0.1'), {
    readBy: UP,
    defaultText: '`127.0.0.1`',
    description:
      'Address of the Prometheus `/metrics` listener: `0.0.0.0` for a Prometheus in another container or pod.',
  }),
  UPSTREAM_METRICS_PORT: variable(portNumber.optional(), {
    readBy: UP,
    defaultText: '`9465`',
    description: "The upstream's Prometheus `/metrics` listener, apart from its public port.",
  }),
  DATA_DIR: variable(z.string().default('./data'), {
    readBy: ['upstream', 'gateway', 'CLI'],
    defaultText: '`./data`',
    description: 'Embedded store, `admin-token`, `feed-token`, address data.',
  }),
  ADDRESS_DATA_DIR: variable(z.string().optional(), {
    readBy: UP_CLI,
    defaultText: '`$DATA_DIR`',
    description:
      'Where `address/` (the imported address data sets) lives, when not in `DATA_DIR`: a volume the replicas share, read-only for them.',
  }),
  DATABASE_URL: variable(databaseUrl.optional(), {
    readBy: UP,
    defaultText: 'unset: embedded store',
    description: 'PostgreSQL instead of the embedded store (below).',
  }),
  DATABASE_TIMEOUT_MS: variable(milliseconds(100, 600_000).default(5000), {
    readBy: UP,
    defaultText: '`5000`',
    description: 'PostgreSQL: bound on connecting and on each statement, 100–600000.',
  }),
  TOKEN_AUDIENCE: variable(z.string().optional(), {
    readBy: UP_GATEWAY,
    defaultText: '`PUBLIC_URL`',
    description: 'The `aud` of every token.',
  }),
  SIGNING_ALG: variable(oneOf(['RS256', 'ES256', 'EdDSA']).default('RS256'), {
    readBy: UP,
    defaultText: '`RS256`',
    description: '`RS256`, `ES256` or `EdDSA`, for new signing keys.',
  }),
  LOG_LEVEL: variable(oneOf(LOG_LEVELS).default('info'), {
    readBy: UP_GATEWAY,
    defaultText: '`info`',
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
  }),
  LOG_FORMAT: variable(oneOf(LOG_FORMATS).optional(), {
    readBy: UP_GATEWAY,
    defaultText: '`pretty` on a terminal, else `json`',
    description: '`json` lines or `pretty` (readable, coloured on a terminal).',
  }),
  ADMIN_TOKEN: variable(z.string().refine(isUsableAdminToken, { error: ADMIN_TOKEN_RULE }).optional(), {
    readBy: UP_CLI,
    defaultText: 'file `$DATA_DIR/admin-token`',
    description: "The admin API's credential (below).",
  }),
  REVOCATION_FEED_TOKEN: variable(secret(16).optional(), {
    readBy: UP_GATEWAY,
    defaultText: 'file `$DATA_DIR/feed-token`',
    description: "The revocation feed's credential.",
  }),
  KEY_ENCRYPTION_KEY: variable(secret(16).optional(), {
    readBy: UP,
    defaultText: 'unset',
    description: 'At least 16 characters; encrypts private signing keys at rest.',
  }),
  TRUSTED_PROXIES: variable(trustedProxies.optional(), {
    readBy: UP,
    defaultText: '`127.0.0.1,::1`',
    description: 'Gateways whose `X-Forwarded-For` the issuer believes (below).',
  }),
  DPOP_NONCE: variable(oneOf(DPOP_NONCE_MODES).default('off'), {
    readBy: UP,
    defaultText: '`off`',
    description:
      'Server nonces for DPoP proofs at the token endpoint (RFC 9449 §8): `off`, `supported` or `required` (below).',
  }),
  DPOP_NONCE_SECRET: variable(secret(16).optional(), {
    readBy: UP_GATEWAY,
    defaultText: 'random per process',
    description: 'At least 16 characters; signs DPoP nonces. Every replica and gateway must share it (below).',
  }),
  REDIS_URL: variable(
    z
      .string()
      .regex(/^rediss?:\/\/\S*$/, 'must be a redis:// or rediss:// URL')
      .optional(),
    {
      readBy: UP_GATEWAY,
      defaultText: 'unset',
      description:
        'The Redis the replicas record DPoP proofs of API calls in, so a proof is accepted once by all of them (the gateways share it too, under their own keys); unset: each replica remembers its own ([operations.md](operations.md#dpop-replays-at-the-upstream-replicas)).',
    },
  ),
  REDIS_KEY_PREFIX: variable(z.string().max(200).default('tokengate:'), {
    readBy: UP,
    defaultText: '`tokengate:`',
    description:
      "Prefix of the upstream's Redis keys (`<prefix>upstream:dpop:…`), to share one Redis with other programs.",
  }),
  // The email route's own variables (#validation), checked here with the rest.
  ...emailEnvironment.shape,
});

export type UpstreamEnvironment = z.output<typeof upstreamEnvironment>;
