import { z } from 'zod';

/**
 * A project's override of its plan's limits, as the admin API takes it, the store keeps it and
 * the gateway reads it from the policy feed. Whatever it names replaces the plan's value for
 * that project; `null` removes the limit (no quota, no limit on that counter).
 */
const rate = z.strictObject({
  requests: z.int().min(1).max(1_000_000_000),
  windowSec: z.int().min(1).max(86_400),
});

export const limitsOverrideSchema = z.strictObject({
  monthlyQuota: z.int().min(1).max(1_000_000_000_000).nullable().optional(),
  groups: z
    .record(
      z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/),
      z.strictObject({ client: rate.nullable().optional(), project: rate.nullable().optional() }),
    )
    .optional(),
});

export type LimitsOverride = z.infer<typeof limitsOverrideSchema>;
