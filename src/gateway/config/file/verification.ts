import { DPOP_NONCE_MODES, REVOCATION_SET_DEFAULTS, VERIFIER_DEFAULTS } from '#auth';
import { z } from 'zod';
import { duration } from '../duration.ts';
import { documented, int, url } from './values.ts';

/** How tokens are checked once a key set is loaded: the caches, the revocation list, DPoP. */

/** The shortest secret DPoP nonces are signed with (as the upstream's DPOP_NONCE_SECRET). */
export const MIN_NONCE_SECRET = 16;

const tokens = VERIFIER_DEFAULTS.tokenCache;
const negative = VERIFIER_DEFAULTS.negativeCache;

export const cachesSchema = z
  .strictObject({
    tokens: z
      .strictObject({
        maxEntries: int(0, 10_000_000).default(tokens.maxEntries).describe('Most tokens cached; 0 disables the cache.'),
        maxBytes: int(0, 2 ** 32)
          .default(tokens.maxBytes)
          .describe(
            'Most heap bytes the cache holds (the default is 64 MiB), each token counted as about 2.15 times its ' +
              'length plus 100: the string and the claims parsed from it (about 1.7 KB for a 750-character token).',
          ),
      })
      .prefault({})
      .describe(
        'Verified tokens, kept until their expiry. A hit still checks expiry, revocation and scope; a token ' +
          'is cached from its second sighting, so a flood of single-use tokens cannot churn the cache.',
      ),
    negative: z
      .strictObject({
        maxEntries: int(0, 10_000_000)
          .default(negative.maxEntries)
          .describe('Most refused tokens remembered; 0 disables the cache.'),
        ttlSec: duration('s', 0, 3_600, negative.ttlSec).describe(
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
  .describe("The verifier's caches.");

export const revocationSchema = z
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
  .describe("The gateway's copy of the revocation list.");

export const dpopSchema = z
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
  .describe('DPoP-bound tokens (`Authorization: DPoP`): server nonces and the URL proofs name.');
