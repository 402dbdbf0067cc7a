/**
 * A value taken from a token or a key set, for a failure detail (the log only): a string cut to
 * `max` characters, anything else named by its type alone. Nothing else is ever converted: JSON
 * can carry `{"toString":0}`, an object whose toString and valueOf are not functions, and
 * `String()` or a template literal of it throws (issue 17: one such header ended the gateway).
 */
export function describeValue(value: unknown, max: number): string {
  if (typeof value === 'string') return value.slice(0, max);
  if (value === null) return 'of type null';
  return Array.isArray(value) ? 'of type array' : `of type ${typeof value}`;
}
