/**
 * Reading one query parameter: absent, present once, or an error message naming it. Repeating
 * a parameter is refused rather than silently picking one of the values.
 */
export type Param = { readonly value: string | undefined } | { readonly error: string };

export function singleParam(query: URLSearchParams, name: string, label: string, maxLength: number): Param {
  const values = query.getAll(name);
  if (values.length > 1) return { error: `${label} must be given once` };
  const value = values[0];
  if (value !== undefined && value.length > maxLength) return { error: `${label} is too long` };
  return { value };
}
