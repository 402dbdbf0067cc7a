import type { RouteRequirement, VerifiedToken } from './types.ts';

/** Whether the token's scopes satisfy a route (`scopes: []` means any valid token). */
export function scopesSatisfy(token: VerifiedToken, requirement: RouteRequirement): boolean {
  const needed = requirement.scopes;
  if (needed.length === 0) return true;
  return requirement.match === 'all'
    ? needed.every((s) => token.scopes.includes(s))
    : needed.some((s) => token.scopes.includes(s));
}
