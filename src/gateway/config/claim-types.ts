import type { ClaimRule, ClaimType } from './file/claims.ts';

/**
 * The load-time check of the routes' claim rules: a rule that can never hold, or names a claim
 * the verifier owns, is a configuration error (`check-config` exits 2 naming it), never a route
 * that silently refuses every token or a check that shadows the verifier's.
 */

/** Claims the verifier checks itself; a route rule on them could only contradict or restate it. */
const RESERVED: ReadonlySet<string> = new Set(['iss', 'aud', 'exp', 'iat', 'nbf', 'jti', 'cnf', 'scope', 'client_gen']);

/** tokengate's own tokens carry these as strings (checkClaims refuses a token where they are not). */
const BUILT_IN: Readonly<Record<string, ClaimType>> = { sub: 'string', client_id: 'string', project_id: 'string' };

export interface ClaimProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

interface Known {
  readonly type: ClaimType;
  /** Where the type comes from, for the message. */
  readonly source: string;
}

export function claimRuleProblems(
  routes: readonly { readonly claims?: Readonly<Record<string, ClaimRule>> | undefined }[],
  claimTypes: Readonly<Record<string, ClaimType>>,
): ClaimProblem[] {
  const problems: ClaimProblem[] = [];
  const known = new Map<string, Known>();
  for (const [name, type] of Object.entries(BUILT_IN)) known.set(name, { type, source: 'a built-in claim' });
  for (const [name, type] of Object.entries(claimTypes)) {
    const builtIn = known.get(name);
    if (RESERVED.has(name)) problems.push({ path: ['claimTypes', name], message: reservedMessage(name) });
    else if (builtIn !== undefined && builtIn.type !== type)
      problems.push({ path: ['claimTypes', name], message: `${name} is a ${builtIn.type} (${builtIn.source})` });
    else known.set(name, { type, source: 'claimTypes' });
  }
  routes.forEach((route, index) => {
    for (const [name, rule] of Object.entries(route.claims ?? {})) {
      const path = ['routes', index, 'claims', name];
      const message = ruleProblem(name, rule, known, `routes[${index}].claims`);
      if (message !== undefined) problems.push({ path, message });
    }
  });
  return problems;
}

function ruleProblem(name: string, rule: ClaimRule, known: Map<string, Known>, where: string): string | undefined {
  if (RESERVED.has(name)) return reservedMessage(name);
  const needs = typeNeeded(rule);
  if (needs === undefined) return 'oneOf values must all be of one type (strings, numbers or booleans)';
  const have = known.get(name);
  if (have === undefined) {
    known.set(name, { type: needs, source: `by ${where}.${name}` });
    return undefined;
  }
  if (have.type === needs) return undefined;
  if (needs === 'list') return `"contains" needs a list claim, but ${name} is a ${have.type} (${have.source})`;
  if (have.type === 'list')
    return `${name} is a list (${have.source}): use {contains: value}, not a ${needs} to compare it with`;
  return `a ${needs} value, but ${name} is a ${have.type} (${have.source})`;
}

/** The claim type a rule presumes; undefined for a `oneOf` mixing types. */
function typeNeeded(rule: ClaimRule): ClaimType | undefined {
  if (typeof rule !== 'object') return scalarType(rule);
  if ('contains' in rule) return 'list';
  if ('equals' in rule) return scalarType(rule.equals);
  const types = new Set(rule.oneOf.map(scalarType));
  return types.size === 1 ? [...types][0] : undefined;
}

function scalarType(value: string | number | boolean): ClaimType {
  return typeof value as 'string' | 'number' | 'boolean';
}

function reservedMessage(name: string): string {
  const hint = name === 'scope' ? ': use scopes' : '';
  return `${name} is checked by the verifier itself (reserved: ${[...RESERVED].join(', ')})${hint}`;
}
