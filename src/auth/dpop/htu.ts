/**
 * `htu` as compared (RFC 9449 §4.3 step 9): scheme, host and path of an absolute http(s) URL,
 * with query and fragment dropped and the URL normalised as WHATWG URL does (case of scheme and
 * host, default port, dot segments, percent-encoding case). Undefined for anything else.
 */
export function normalizeHtu(value: string): string | undefined {
  if (value.length > 4096) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  const path = url.pathname.replace(/%[0-9a-f]{2}/gi, (triplet) => triplet.toUpperCase());
  return `${url.protocol}//${url.host}${path}`;
}
