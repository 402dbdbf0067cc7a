/**
 * An RFC 7662 introspection answer, read defensively: untrusted JSON of bounded size. Active
 * only when `active` is exactly `true`; its other members are then claims (RFC 7662 §2.2).
 * An answer naming another issuer (`iss`) or not this gateway (`aud`, when present) is
 * inactive here, whatever it says: the issuer's answer about a token meant for someone else.
 */
export type IntrospectionAnswer =
  | { readonly active: true; readonly claims: Readonly<Record<string, unknown>> }
  | { readonly active: false; readonly detail: string };

function audienceIncludes(aud: unknown, audience: string): boolean {
  if (typeof aud === 'string') return aud === audience;
  return Array.isArray(aud) && aud.length <= 16 && aud.includes(audience);
}

export function readIntrospection(body: unknown, issuer: string, audience: string): IntrospectionAnswer | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const claims = body as Record<string, unknown>;
  if (typeof claims['active'] !== 'boolean') return undefined;
  if (claims['active'] !== true) return { active: false, detail: 'inactive' };
  if (claims['iss'] !== undefined && claims['iss'] !== issuer) return { active: false, detail: 'iss mismatch' };
  if (claims['aud'] !== undefined && !audienceIncludes(claims['aud'], audience))
    return { active: false, detail: 'aud mismatch' };
  const type = claims['token_type'];
  // RFC 7662 §2.2 token_type is the OAuth token type: a refresh token is no access token.
  if (typeof type === 'string' && type.toLowerCase() === 'refresh_token')
    return { active: false, detail: 'not an access token' };
  return { active: true, claims };
}
