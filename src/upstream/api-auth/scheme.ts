/**
 * Which method a request uses. A Bearer (or DPoP, RFC 9449) Authorization header wins: key/secret parameters are
 * then ignored (issue 4 item 3). Anything else in Authorization is the raw API secret (the public
 * API sends `Authorization: <secret>` with no scheme). The bearer test is the scheme word followed
 * by whitespace or nothing, so a raw secret that happens to start with "bearer" stays a secret.
 */
export function usesBearer(authorization: string | undefined): boolean {
  return authorization !== undefined && /^(?:bearer|dpop)(?:[ \t]|$)/i.test(authorization);
}
