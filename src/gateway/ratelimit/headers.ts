import type { Limit } from './limit.ts';

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10): `RateLimit-Policy` lists
 * the policies that apply (`"client";q=10;w=1`: quota q per window w seconds) and `RateLimit`
 * their state (`"client";r=9;t=1`: r left, full again in t seconds), one item per counter.
 */
export function policyField(limits: readonly Limit[]): string {
  let out = '';
  for (const limit of limits) out = out === '' ? limit.policy : `${out}, ${limit.policy}`;
  return out;
}

export function stateItem(limit: Limit, remaining: number, resetSec: number): string {
  return `"${limit.name}";r=${remaining};t=${resetSec}`;
}
