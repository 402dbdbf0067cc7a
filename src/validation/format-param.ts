/**
 * `format`, accepted on every validation endpoint with one rule: only JSON exists, in any case,
 * and an empty value is the default, as forms and SDKs that always send the parameter do.
 */
export function formatError(query: URLSearchParams): string | undefined {
  const value = query.get('format');
  return value === null || value === '' || value.toLowerCase() === 'json' ? undefined : 'Format must be json';
}
