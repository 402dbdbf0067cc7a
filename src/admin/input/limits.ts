import { limitsOverrideSchema } from '#common';
import { z } from 'zod';

/**
 * A project's override of its plan's rate limits: `{monthlyQuota?, groups?: {name: {client?,
 * project?}}}`, each rate `{requests, windowSec}`; `null` removes that limit for the project.
 */
export const setLimitsInput = z
  .object({ override: limitsOverrideSchema }, { error: 'body must be a JSON object with an override' })
  .brand<'SetLimitsInput'>();
export type SetLimitsInput = z.output<typeof setLimitsInput>;

/** A UTC calendar month, `2026-11`. */
export const monthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month: a UTC calendar month such as 2026-11')
  .brand<'Month'>();
export type Month = z.output<typeof monthSchema>;

/** The query of a project's usage: `?month=2026-11` (default: this month). */
export const usageQuery = z.object({ month: monthSchema.optional() });
