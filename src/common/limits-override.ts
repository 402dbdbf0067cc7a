import { z } from 'zod';

/**
 * A project's override of its plan's limits, as the admin API takes it, the store keeps it and
 * the gateway reads it from the policy feed. Whatever it names replaces the plan's value for
 * that project; `null` removes the limit (no quota, no limit on that counter).
 */
const whole = (name: string, max: number) => {
  const message = `${name}: a whole number from 1 to ${max}`;
  return z.int(message).min(1, message).max(max, message);
};
const rate = z.strictObject({
  requests: whole('requests', 1_000_000_000),
  windowSec: whole('windowSec', 86_400),
});

export const limitsOverrideSchema = z.strictObject({
  monthlyQuota: whole('monthlyQuota', 1_000_000_000_000).nullable().optional(),
  groups: z
    .record(
      z
        .string()
        .regex(
          /^[a-z][a-z0-9_-]{0,31}$/,
          'groups: a group name is lowercase (a letter, then letters, digits, "-" or "_")',
        ),
      z.strictObject({ client: rate.nullable().optional(), project: rate.nullable().optional() }),
    )
    .optional(),
});

export type LimitsOverride = z.infer<typeof limitsOverrideSchema>;
