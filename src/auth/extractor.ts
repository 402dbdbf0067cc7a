import { fail } from './failure.ts';
import type { AuthFailure } from './types.ts';

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Takes the bearer token out of an Authorization header value (RFC 6750 §2.1: header only, never
 * query or cookie). No header, or another scheme (Basic…), is `credentials_missing` (RFC 6750 §3.1:
 * "attempted using an unsupported authentication method" gets no error code). A Bearer header that
 * is not `Bearer 1*SP b64token` (one or more spaces, RFC 6750 §2.1) is `invalid_token`, never "no
 * auth". `checkAlphabet: false` skips the b64token scan for callers that parse the token as a
 * compact JWS right after (its base64url alphabet is stricter), so the hot path scans each char once.
 */
export function extractBearer(
  authorization: string | undefined,
  maxLength = 8192,
  checkAlphabet = true,
): string | AuthFailure {
  if (authorization === undefined || authorization === '')
    return fail('credentials_missing', 'no Authorization header');
  // The type says string, but a host in plain JavaScript may hand over a header list or null.
  if (typeof authorization !== 'string') return fail('invalid_token', 'Authorization is not a string');
  if (!startsWithBearer(authorization)) {
    return fail('credentials_missing', 'Authorization scheme is not Bearer');
  }
  if (authorization.charCodeAt(6) !== SPACE) {
    return fail('invalid_token', 'Authorization is not "Bearer", spaces, then a token');
  }
  // Clients send one space: that path costs one compare more than before; more go out of line.
  const start = authorization.charCodeAt(7) === SPACE ? afterSpaces(authorization, 8) : 7;
  if (start === authorization.length) {
    return fail('invalid_token', 'Authorization is not "Bearer", spaces, then a token');
  }
  if (authorization.length - start > maxLength) return fail('invalid_token', 'bearer token too long');
  const token = authorization.slice(start);
  if (checkAlphabet && !B64TOKEN.test(token))
    return fail('invalid_token', 'bearer token has characters outside b64token');
  return token;
}

const SCHEME = 'bearer';
const SPACE = 0x20;

/** The scheme, case-insensitively (RFC 9110 §11.1), without a lower-cased copy per request. */
function startsWithBearer(value: string): boolean {
  if (value.length < SCHEME.length) return false;
  // For the letters of "bearer", setting bit 0x20 maps exactly the upper- and lower-case letter to the lower-case one.
  for (let i = 0; i < SCHEME.length; i++) if ((value.charCodeAt(i) | 0x20) !== SCHEME.charCodeAt(i)) return false;
  return true;
}

/** Where the token starts when more than one space follows the scheme (RFC 6750 §2.1: 1*SP). */
function afterSpaces(value: string, from: number): number {
  let at = from;
  while (value.charCodeAt(at) === SPACE) at++;
  return at;
}
