import type { RouteRequirement } from '#auth';
import { OWN_ISSUER } from '../config/file/external-issuers.ts';
import type { RouteConfig } from '../config/file/routes.ts';
import { type ClaimHeaderPlan, claimHeaderPlan, STRIP_PASSES } from '../proxy/passes/index.ts';
import { type ClaimCheck, compileClaimRules } from './claim-rules.ts';
import type { ErrorShape } from './error-shape.ts';

/**
 * A route as the request path uses it, compiled once at load: the auth requirement is built
 * here (not per request) and the error extras are frozen.
 */
export interface CompiledRoute {
  /** The configured path pattern; the metrics and access-log label. */
  readonly id: string;
  readonly auth: 'bearer' | 'none';
  readonly requirement: RouteRequirement;
  /** The issuers whose tokens it accepts; undefined when only tokengate's own (the cheapest path). */
  readonly issuers?: readonly string[] | undefined;
  readonly allowKeySecret: boolean;
  readonly errorFields: Readonly<Record<string, unknown>>;
  /** The body of the gateway's own errors on this route (error-shape.ts). */
  readonly errorShape: ErrorShape;
  /** Its group in `rateLimits`; undefined: neither limited nor counted. */
  readonly rateLimitGroup: string | undefined;
  /** Its `claims:` rules as one check (claim-rules.ts); undefined: no rules, nothing to run. */
  readonly claimCheck: ClaimCheck | undefined;
  /** What to strip and set for claim headers; undefined while no route of the configuration has any. */
  readonly claimHeaders: ClaimHeaderPlan | undefined;
}

const NO_CLAIM_HEADERS: ReadonlySet<string> = new Set();

/** `claimHeaderNames`: every route's claim headers, lower-case (router.ts collects them). */
export function compileRoute(
  route: RouteConfig,
  claimHeaderNames: ReadonlySet<string> = NO_CLAIM_HEADERS,
): CompiledRoute {
  return Object.freeze({
    id: route.path,
    auth: route.auth,
    requirement: Object.freeze({ scopes: Object.freeze([...route.scopes]), match: route.match }),
    issuers: issuersOf(route.issuers),
    allowKeySecret: route.allowKeySecret,
    errorFields: route.errorFields,
    errorShape: route.errorShape,
    rateLimitGroup: route.rateLimitGroup,
    claimCheck: compileClaimRules(route.claims),
    claimHeaders: claimHeaderPlan(STRIP_PASSES, claimHeaderNames, route.claimHeaders),
  });
}

function issuersOf(names: readonly string[] | undefined): readonly string[] | undefined {
  if (names === undefined || names.every((name) => name === OWN_ISSUER)) return undefined;
  return Object.freeze([...new Set(names)]);
}
