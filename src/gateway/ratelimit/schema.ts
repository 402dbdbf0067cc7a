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
      "Calls a project may make per calendar month (UTC) on routes with a `rateLimitGroup`; unset: no quota. Past it the calls get 429 `1045` until the month's end.",
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

export function rateLimitsSchema() {
  const plans = Object.fromEntries(
    PLANS.map((p) => [p, planLimitsSchema.prefault({}).describe(`Limits of the ${p} plan.`)]),
  ) as Record<(typeof PLANS)[number], z.ZodPrefault<typeof planLimitsSchema>>;
  return z.strictObject({
    plans: z.strictObject(plans).prefault({}).describe('Limits per plan.'),
    defaultPlan: z
      .enum(PLANS)
      .default('free')
      .describe("The plan a project is held to when the gateway knows none for it."),
  });
}

export type RateLimitsConfig = z.infer<ReturnType<typeof rateLimitsSchema>>;
