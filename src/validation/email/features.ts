import { failure, type Result, success } from '#common';

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

function isFeature(value: string): value is Feature {
  return (FEATURES as readonly string[]).includes(value);
}

/** The parsed set, or a public 1000 message naming the parameter. */
export function parseFeatures(raw: string | undefined): Result<ReadonlySet<Feature>> {
  // Blank is the default, as for the address endpoints' optional lists (`state_codes`, `source`).
  if (raw === undefined || raw.trim() === '') return success(new Set(DEFAULT_FEATURES));
  if (raw.length > MAX_FEATURES_LENGTH) return failure('Features is too long');
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.length === 0) return failure('Features can not be blank');
  const unknown = names.find((name) => !isFeature(name));
  if (unknown !== undefined) {
    return failure(`Features must be a comma-separated list of ${FEATURES.join(', ')}`);
  }
  return success(new Set(names.filter(isFeature)));
}

export function isFormatOnly(features: ReadonlySet<Feature>): boolean {
  return features.size === 1 && features.has('format');
}
