import { z } from 'zod';

/**
 * The `features` parameter: which checks to run. `format` alone is a syntax-only check;
 * `format` with anything else, or any other set, runs the normal verification (syntax, the
 * lists, and the DNS domain check). `connection` (an SMTP mailbox probe) is accepted but never
 * performed: see `checks.connection` in the result.
 */
export const FEATURES = ['format', 'domain', 'connection', 'provider'] as const;
export type Feature = (typeof FEATURES)[number];

export const DEFAULT_FEATURES: readonly Feature[] = ['domain', 'connection'];
const MAX_FEATURES_LENGTH = 100;

/**
 * The `features` parameter as a set of checks. Blank is the default, as for the address endpoints'
 * optional lists (`state_codes`, `source`); names are trimmed and in any case.
 */
export const featuresParam = z
  .string()
  .optional()
  .transform((raw) => (raw === undefined || raw.trim() === '' ? undefined : raw))
  .pipe(
    z
      .string()
      .max(MAX_FEATURES_LENGTH, { error: 'Features is too long' })
      .transform((raw) =>
        raw
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter((name) => name !== ''),
      )
      .pipe(
        z
          .array(z.enum(FEATURES, { error: `Features must be a comma-separated list of ${FEATURES.join(', ')}` }))
          .min(1, { error: 'Features can not be blank' }),
      )
      .optional(),
  )
  .transform((names): ReadonlySet<Feature> => new Set(names ?? DEFAULT_FEATURES));

export function isFormatOnly(features: ReadonlySet<Feature>): boolean {
  return features.size === 1 && features.has('format');
}
