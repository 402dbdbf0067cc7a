import { PLANS } from '#common';
import { z } from 'zod';
import { duration } from '../config/duration.ts';

/**
 * The `rateLimits` section of `gateway.yaml` (and of a project override, which has the shape
 * of one plan). Kept apart from the rest of the schema: it is one concept, and the plan and
 * override shapes are shared with the policy feed (policy.ts).
 */
const int = (min: number, max: number) => z.int().min(min).max(max);

export const GROUP_NAME = /^[a-z][a-z0-9_-]{0,31}$/;
export const groupName = z
  .string()
  .regex(GROUP_NAME, 'must be a lowercase name: a letter, then letters, digits, "-" or "_" (at most 32)');

export const rateSchema = z.strictObject({
  requests: int(1, 1_000_000_000).describe(
    'Requests per window. It is also the burst: a caller idle for a window may send this many at once.',
  ),
  windowSec: duration('s', 1, 86_400, 1).describe(
    'The window, in seconds: the bucket refills `requests` tokens per window, evenly.',
  ),
});

export const groupLimitsSchema = z.strictObject({
  client: rateSchema
    .optional()
    .describe("Each client's limit on the group: the token's `client_id`, or the API key of a key/secret call."),
  project: rateSchema.optional().describe("The limit on the group shared by all of a project's clients and keys."),
});

export const planLimitsSchema = z.strictObject({
  monthlyQuota: int(1, 1_000_000_000_000)
    .optional()
    .describe(
      "Calls a project may make per calendar month (UTC) on routes with a `rateLimitGroup`; unset: no quota. Past it the calls get 429 `1046` until the month's end.",
    ),
  groups: z
    .record(groupName, groupLimitsSchema)
    .default({})
    .describe(
      'Limits per route group (`routes[].rateLimitGroup`): `group: {client: {requests, windowSec}, project: {requests, windowSec}}`, ' +
        'either optional. A group not named here is not limited.',
    ),
});

export type PlanLimits = z.infer<typeof planLimitsSchema>;
export type Rate = z.infer<typeof rateSchema>;

/** A Redis server's URL, in the file or in REDIS_URL (config/environment.ts checks the variable with it). */
export const redisUrl = z.string().regex(/^rediss?:\/\/\S*$/, 'must be a redis:// or rediss:// URL');

const plans = Object.fromEntries(
  PLANS.map((p) => [p, planLimitsSchema.prefault({}).describe(`Limits of the ${p} plan.`)]),
) as Record<(typeof PLANS)[number], z.ZodPrefault<typeof planLimitsSchema>>;

/** The section itself; REDIS_URL stands in for an unset `redis.url` (config/resolve.ts). */
export const rateLimitsSchema = z.strictObject({
  plans: z.strictObject(plans).prefault({}).describe('Limits per plan.'),
  defaultPlan: z
    .enum(PLANS)
    .default('free')
    .describe(
      "The plan of a project the upstream's policy feed has not named (yet): a new one, or any before the feed first answers.",
    ),
  redis: z
    .strictObject({
      url: redisUrl.optional().meta({
        description:
          'The Redis server the gateways share their counters through (`redis://[:password@]host:port[/db]`). ' +
          'Unset: each gateway counts in its own memory. Changing it takes a restart.',
        defaultText: '`REDIS_URL`, else none',
      }),
      failOpen: z
        .boolean()
        .default(true)
        .describe(
          "Redis unreachable: `true` decides by this gateway's own in-process counts (a limit then holds per " +
            'gateway, not for all of them); `false` answers calls on limited routes 503 `1056`.',
        ),
      leaseSize: int(1, 100_000)
        .default(20)
        .describe(
          'Most tokens a gateway draws from Redis at once for one counter; the chunk is a tenth of the limit ' +
            'when that is less (at least 1). A counter admits at most its limit + refill + one chunk per gateway.',
        ),
      timeoutMs: duration('ms', 10, 10_000, 250).describe(
        'Longest wait, in ms, for one Redis command; past it Redis counts as unreachable for a second.',
      ),
      keyPrefix: z
        .string()
        .default('tokengate:')
        .describe('Prefix of every Redis key, to share one Redis with other programs.'),
    })
    .prefault({})
    .describe('Counters shared by several gateways through Redis.'),
  policyRefreshMs: duration('ms', 100, 60_000, 500).describe(
    "How often, in ms, the gateway asks the upstream for the changes to projects' plans and overrides and to " +
      "enabled API keys' projects since its last poll (`<upstream.url>/internal/rate-limits`, with the revocation " +
      "feed's credential; everything at start). A change through the admin API takes effect within this time.",
  ),
  usageFlushMs: duration('ms', 100, 600_000, 1_000).describe(
    'How often, in ms, the gateway reports the calls it admitted per project and UTC day to the upstream ' +
      '(`<upstream.url>/internal/usage`), for the portal and the admin API.',
  ),
});

export type RateLimitsConfig = z.output<typeof rateLimitsSchema>;
