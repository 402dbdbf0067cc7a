import { z } from 'zod';
import { SCOPES } from '#common';

const RULE = `scopes: required, a non-empty array drawn from ${SCOPES.join(', ')}`;

/** A non-empty list (at most 16 entries) of known scopes; duplicates collapse, in the table's order. */
export const scopesSchema = z
  .array(z.enum(SCOPES, { error: (issue) => `scopes: unknown scope ${describeValue(issue.input)}; ${RULE}` }), {
    error: RULE,
  })
  .min(1, RULE)
  .max(16, RULE)
  .transform((scopes) => SCOPES.filter((scope) => scopes.includes(scope)));

/** Names an untrusted JSON value without coercing it: `String({toString: 0})` throws. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 32));
  if (value === null) return '(null)';
  if (Array.isArray(value)) return '(an array)';
  return typeof value === 'object' ? '(an object)' : `(a ${typeof value})`;
}
