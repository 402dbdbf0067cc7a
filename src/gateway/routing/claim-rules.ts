import type { ClaimRule } from '../config/file/claims.ts';

/**
 * A route's `claims:` compiled once at load into one function over the verified token's claims:
 * it answers the name of the first claim that fails (for the log, never its value: claims can be
 * personal data), or undefined when every rule holds. Matching is exact and typed: `1` never
 * equals `"1"`, and `contains` needs a JSON array (a claim sent as a single string does not
 * count as a list of one).
 */
export type ClaimCheck = (claims: Readonly<Record<string, unknown>> | undefined) => string | undefined;

type Test = (value: unknown) => boolean;

export function compileClaimRules(rules: Readonly<Record<string, ClaimRule>> | undefined): ClaimCheck | undefined {
  if (rules === undefined) return undefined;
  const entries = Object.entries(rules).map(([name, rule]) => [name, testOf(rule)] as const);
  if (entries.length === 0) return undefined;
  return (claims) => {
    for (const [name, test] of entries) {
      // Own members only: a claim named `constructor` or `__proto__` must not be read off the prototype.
      const value = claims !== undefined && Object.hasOwn(claims, name) ? claims[name] : undefined;
      if (!test(value)) return name;
    }
    return undefined;
  };
}

function testOf(rule: ClaimRule): Test {
  if (typeof rule !== 'object') return (value) => value === rule;
  if ('equals' in rule) {
    const wanted = rule.equals;
    return (value) => value === wanted;
  }
  if ('oneOf' in rule) {
    const allowed = new Set<unknown>(rule.oneOf);
    return (value) => allowed.has(value);
  }
  const wanted = rule.contains;
  return (value) => Array.isArray(value) && value.includes(wanted);
}
