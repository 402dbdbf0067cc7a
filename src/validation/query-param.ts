import { failure, type Result, success } from '#common';

/**
 * One query parameter of a validation endpoint: absent (`undefined`), present once, or an error
 * message naming it. Repeating a parameter is refused rather than silently picking one value.
 * Shared by the endpoints (email, phone), so none imports another's internals.
 */
export function singleParam(
  query: URLSearchParams,
  name: string,
  label: string,
  maxLength: number,
): Result<string | undefined> {
  const values = query.getAll(name);
  if (values.length > 1) return failure(`${label} must be given once`);
  const value = values[0];
  if (value !== undefined && value.length > maxLength) return failure(`${label} is too long`);
  return success(value);
}
