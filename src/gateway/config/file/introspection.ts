import { z } from 'zod';
import { duration } from '../duration.ts';
import { documented, int, requestUrl } from './values.ts';

/** `externalIssuers[].introspection`: RFC 7662 for an issuer's opaque (or revocable) tokens. */
export const introspectionSchema = z
  .strictObject({
    url: requestUrl
      .optional()
      .meta(
        documented(
          "The issuer's introspection endpoint. Needed unless `discoveryUrl` advertises one.",
          'the `introspection_endpoint` of the `discoveryUrl` metadata',
        ),
      ),
    clientId: z.string().min(1).describe('The client id the gateway authenticates with (HTTP Basic, RFC 6749 §2.3.1).'),
    clientSecret: z
      .string()
      .min(1)
      // biome-ignore lint/suspicious/noTemplateCurlyInString: gateway.yaml's interpolation syntax, shown as written.
      .describe('Its secret; write `${VARIABLE}` to take it from the environment rather than the file.'),
    tokens: z
      .enum(['opaque', 'all'])
      .default('opaque')
      .describe(
        '`opaque`: tokens that are not JWTs are introspected. `all`: the JWTs of this issuer too, after their ' +
          'signature and claims passed, so that a token the issuer revoked is refused (1024) within ' +
          '`cacheMaxSec`.',
      ),
    cacheMaxSec: duration('s', 0, 3_600, 60).describe(
      'Longest time, in seconds, an active answer is reused without asking again; never past the token’s `exp`.',
    ),
    negativeCacheSec: duration('s', 0, 300, 5).describe(
      'How long, in seconds, an inactive answer is reused: a replayed dead token costs no call.',
    ),
    maxConcurrent: int(1, 1_024)
      .default(16)
      .describe('Calls to the endpoint at once; more wait (up to 1,000), then are answered 503 `1057`.'),
    timeoutMs: duration('ms', 100, 60_000, 2_000).describe('Timeout, in ms, of one introspection call.'),
    failOpen: z
      .boolean()
      .default(false)
      .describe(
        'When the endpoint fails (timeout, error, junk): `false` answers 503 `1057`; `true` accepts a JWT that ' +
          'passed its own checks (`tokens: all`). An opaque token is never accepted unanswered.',
      ),
  })
  .optional()
  .describe(
    'RFC 7662 token introspection for this issuer, client-authenticated, cached, bounded and fail-closed by default.',
  );
