import { KEY_SET_DEFAULTS, SUPPORTED_ALGORITHMS, VERIFIER_DEFAULTS } from '#auth';
import { z } from 'zod';
import { duration } from '../duration.ts';
import { documented, requestUrl, url } from './values.ts';

/** `issuer` of `gateway.yaml`: what every token must carry, and where keys and revocations come from. */

/** The key-set cache's keys; `outage` says what happens past `maxStaleSec`. */
export function keySetSchema(outage: string) {
  return z
    .strictObject({
      minRefreshSec: duration('s', 1, 86_400, KEY_SET_DEFAULTS.minMaxAgeSec).describe(
        "Shortest refresh interval, in seconds: the lower clamp of the key set's `max-age`.",
      ),
      maxRefreshSec: duration('s', 1, 86_400, KEY_SET_DEFAULTS.maxMaxAgeSec).describe(
        "Longest refresh interval, in seconds: the upper clamp of the key set's `max-age`.",
      ),
      maxStaleSec: duration('s', 0, 604_800, KEY_SET_DEFAULTS.maxStaleSec).describe(
        'How long, in seconds, the last good keys are still used past their refresh time while the ' +
          `issuer is unreachable. ${outage}`,
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
    .describe("The cached key set: refresh, unknown key ids, and the issuer's outages.");
}

const revocationFeedSchema = z
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
  .describe("The issuer's revocation feed.");

export const issuerSchema = z
  .strictObject({
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
      .array(z.enum(SUPPORTED_ALGORITHMS))
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
    keySet: keySetSchema('Past it bearer requests get 503 `1052` and `/readyz` fails.'),
    revocationFeed: revocationFeedSchema,
  })
  .prefault({})
  .describe('The token issuer the gateway trusts: what every token must carry, and where keys come from.');
