/**
 * Refuses request paths that a lenient server downstream could read differently from our router,
 * so that the upstream never sees a path the route map did not mean (a `/public/*` route must not
 * carry a request to the upstream's `/internal/*`). Refused, never normalised: the gateway would
 * have to guess which reading the upstream takes, and no path of the API needs any of these:
 * - dot segments, plain or percent-encoded in any mix (`..`, `%2e%2e`, `.%2E`);
 * - path parameters: `;` anywhere (`/public/..;/internal` is `/public/../internal` to a server that
 *   drops `;…` from each segment before resolving dots, as Tomcat and Spring do), and `%3b`;
 * - encoded separators and ends: `%2f`, `%5c` (backslash), `%00`;
 * - `%25`, an encoded `%`: decoded once more, `%252e` is `%2e`;
 * - backslashes, empty segments (`//internal` is a host to `new URL`), bytes outside RFC 3986
 *   `pchar`, and percent-encoding that is malformed or not UTF-8 (`%c0%ae` is an overlong `.` to
 *   an old decoder).
 */
const PCHARS = /^\/[A-Za-z0-9\-._~!$&'()*+,=:@%/]*$/;
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;
const ENCODED_DELIMITER = /%(2f|5c|00|3b|25)/i;

export function isSafePath(path: string): boolean {
  if (!PCHARS.test(path) || path.includes('//') || ENCODED_DELIMITER.test(path) || DOT_SEGMENT.test(path)) return false;
  return !path.includes('%') || decodesAsUtf8(path);
}

function decodesAsUtf8(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The path part of a request target (`/a/b?x=1` → `/a/b`). */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
