/** The closed set of scopes the service grants (spec: Scopes). */
export const SCOPES = ['address', 'phone', 'email'] as const;
export type Scope = (typeof SCOPES)[number];

const scopeSet: ReadonlySet<string> = new Set(SCOPES);

export function isScope(value: string): value is Scope {
  return scopeSet.has(value);
}

/** Plans; only business and enterprise may hold OAuth clients (spec: Limits). */
export const PLANS = ['free', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

export function planAllowsOAuth(plan: Plan): boolean {
  return plan === 'business' || plan === 'enterprise';
}

/** The scopes a plan's clients may be given: every scope on business and enterprise, none on free (spec: Limits). */
export function planScopes(plan: Plan): readonly Scope[] {
  return planAllowsOAuth(plan) ? SCOPES : [];
}
