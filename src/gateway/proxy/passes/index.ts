import type { IncomingHttpHeaders } from 'node:http';
import { type ClaimHeaderPlan, injectClaimHeaders } from './claim-headers.ts';
import type { ForwardContext, HeaderPass, StripPass } from './context.ts';
import { isForwardingClaim, setForwarded } from './forwarded.ts';
import { isHopByHop } from './hop-by-hop.ts';
import { injectIdentity, isInboundIdentity } from './identity.ts';
import { setRequestId } from './request-id.ts';

export type { ForwardContext, HeaderPass, StripPass } from './context.ts';
export { requestIdFrom } from './request-id.ts';
export { isHopByHop } from './hop-by-hop.ts';
export { type ClaimHeaderPlan, claimHeaderPlan, decisionClaimHeaders } from './claim-headers.ts';
export { claimHeaderValue } from './claim-value.ts';

/**
 * The request header passes, in order (http-proxy-3 `web-outgoing` style): strip passes decide
 * what of the inbound headers is copied, then set passes add to the copy. Identity headers are
 * injected only into a copy that holds no inbound `x-tokengate-*`, and no client's
 * `X-Forwarded-Port` or `X-Real-IP` survives. `Authorization` is forwarded
 * on purpose: the upstream verifies the token again (defence in depth).
 */
export const STRIP_PASSES: readonly StripPass[] = [isHopByHop, isInboundIdentity, isForwardingClaim];
export const SET_PASSES: readonly HeaderPass[] = [setForwarded, setRequestId, injectIdentity];

/**
 * The headers to send upstream, as a new object: building a copy is several times cheaper
 * than deleting from Node's parsed header object (deletes turn it into a slow dictionary,
 * which http-proxy-3 then copies again). A route's claim headers (claim-headers.ts) bring their own
 * strip passes and are set last.
 */
export function forwardHeaders(
  inbound: IncomingHttpHeaders,
  ctx: ForwardContext,
  claims?: ClaimHeaderPlan,
): IncomingHttpHeaders {
  const out = copyWithout(inbound, claims === undefined ? STRIP_PASSES : claims.strips);
  for (const pass of SET_PASSES) pass(out, ctx);
  if (claims !== undefined) injectClaimHeaders(out, claims, ctx.token);
  return out;
}

export function copyWithout(headers: IncomingHttpHeaders, strips: readonly StripPass[]): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  next: for (const name in headers) {
    for (const strip of strips) if (strip(name, headers)) continue next;
    out[name] = headers[name];
  }
  return out;
}
