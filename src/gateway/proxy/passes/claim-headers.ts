import type { VerifiedToken } from '#auth';
import { claimHeaderValue } from './claim-value.ts';
import type { StripPass } from './context.ts';

/**
 * A route's `claimHeaders:` compiled once at load: which inbound headers to drop (every header any
 * route of the configuration copies a claim to, so a client cannot assert `X-Tenant` on a route
 * that does not set it, to an upstream that trusts it everywhere) and which claims to copy here.
 * Routes of a configuration without claim headers have no plan and pay nothing.
 */
export interface ClaimHeaderPlan {
  /** The request's strip passes: the usual ones, then the configured claim headers. */
  readonly strips: readonly StripPass[];
  /** Every route's claim headers, lower-case: what is stripped. */
  readonly names: readonly string[];
  /** Lower-case header name and the claim it carries, in the order configured. */
  readonly headers: readonly (readonly [header: string, claim: string])[];
}

export function claimHeaderPlan(
  baseStrips: readonly StripPass[],
  strippedNames: ReadonlySet<string>,
  headers: Readonly<Record<string, string>> | undefined,
): ClaimHeaderPlan | undefined {
  if (strippedNames.size === 0) return undefined;
  const isClaimHeader: StripPass = (name) => strippedNames.has(name);
  return Object.freeze({
    strips: Object.freeze([...baseStrips, isClaimHeader]),
    names: Object.freeze([...strippedNames]),
    headers: Object.freeze(
      Object.entries(headers ?? {}).map(([header, claim]) => Object.freeze([header.toLowerCase(), claim] as const)),
    ),
  });
}

/** After the other set passes: the token's claims, encoded (claim-value.ts); a claim it lacks sends nothing. */
export function injectClaimHeaders(
  out: Record<string, unknown>,
  plan: ClaimHeaderPlan,
  token: VerifiedToken | undefined,
): void {
  const claims = token?.claims;
  if (claims === undefined) return;
  for (const [header, claim] of plan.headers) {
    const value = Object.hasOwn(claims, claim) ? claimHeaderValue(claims[claim]) : undefined;
    if (value !== undefined) out[header] = value;
  }
}

/**
 * Forward-auth's 200 (decision-steps.ts): every claim header of the configuration, empty where
 * this route or token gives none. The proxy copies them onto the request it forwards, replacing
 * the client's copies (Traefik `authResponseHeaders`, Envoy `allowed_upstream_headers`); a header
 * left out would leave a client's own copy in place.
 */
export function decisionClaimHeaders(
  out: Record<string, unknown>,
  plan: ClaimHeaderPlan,
  token: VerifiedToken | undefined,
): void {
  for (const name of plan.names) out[name] = '';
  injectClaimHeaders(out, plan, token);
}
