/**
 * Rejects request paths that a lenient URL parser downstream could read differently from our
 * router: dot segments (`/api/../internal/x`, also percent-encoded), backslashes, empty
 * segments (`//internal` is a host to `new URL`), and bytes outside RFC 3986 `pchar`. Without
 * this, a `/api/*` route could carry a request to the upstream's `/internal/*`.
 */
const PCHARS = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;

export function isSafePath(path: string): boolean {
  if (!PCHARS.test(path) || path.includes('//')) return false;
  if (/%2f|%5c|%00/i.test(path)) return false;
  return !DOT_SEGMENT.test(path);
}

/** The path part of a request target (`/a/b?x=1` → `/a/b`). */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
