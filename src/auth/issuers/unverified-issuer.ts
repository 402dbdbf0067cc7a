/**
 * The `iss` of a compact JWS, read from its payload before any signature is checked: only to
 * choose whose keys and rules check the token (RFC 8725 §3.10 forbids trusting it for more).
 * Undefined for anything that is not a three-segment token whose payload is a base64url JSON
 * object with a string `iss` of at most 1024 characters. Never throws.
 */
export function unverifiedIssuer(token: string): string | undefined {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  if (first <= 0 || second <= first + 1) return undefined;
  const segment = token.slice(first + 1, second);
  if (!BASE64URL.test(segment)) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(UTF8.decode(Buffer.from(segment, 'base64url')));
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const iss = (payload as Record<string, unknown>)['iss'];
  return typeof iss === 'string' && iss.length > 0 && iss.length <= 1024 ? iss : undefined;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Fatal, as compact.ts: bytes that are not UTF-8 are no issuer. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
