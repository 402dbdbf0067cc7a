import { isScope, SCOPES, type Scope } from '#common';
import { OAuthError } from './oauth-error.ts';

/** RFC 6749 §3.3 scope-token characters: %x21 / %x23-5B / %x5D-7E, separated by spaces. */
const SCOPE_SYNTAX = /^[\x21\x23-\x5B\x5D-\x7E ]*$/;

/**
 * The granted scopes, in canonical order. Omitted → every permitted scope (spec). Repeated
 * spaces are tolerated; unknown, unpermitted or ill-formed values → `invalid_scope` (no silent
 * down-scoping). Values are case-sensitive; duplicates collapse.
 */
export function grantScopes(requested: string | undefined, permitted: readonly Scope[]): Scope[] {
  const allowed = new Set(permitted);
  if (requested === undefined) return SCOPES.filter((s) => allowed.has(s));
  if (!SCOPE_SYNTAX.test(requested)) throw new OAuthError('invalid_scope', 'scope contains invalid characters');
  const wanted = new Set<Scope>();
  for (const value of requested.split(' ')) {
    if (value === '') continue;
    if (!isScope(value) || !allowed.has(value)) {
      throw new OAuthError('invalid_scope', 'requested scope is invalid or not permitted for this client');
    }
    wanted.add(value);
  }
  if (wanted.size === 0) return SCOPES.filter((s) => allowed.has(s));
  return SCOPES.filter((s) => wanted.has(s));
}
