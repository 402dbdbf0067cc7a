import type { IncomingHttpHeaders } from 'node:http';
import type { ForwardContext, HeaderPass } from './context.ts';
import { setForwarded } from './forwarded.ts';
import { stripHopByHop } from './hop-by-hop.ts';
import { injectIdentity, stripInboundIdentity } from './identity.ts';
import { setRequestId } from './request-id.ts';

export type { ForwardContext, HeaderPass } from './context.ts';
export { requestIdFrom } from './request-id.ts';
export { stripHopByHop } from './hop-by-hop.ts';

/**
 * The request header passes, in order (http-proxy-3 `web-outgoing` style). Order matters:
 * identity headers are injected only after every inbound copy is gone. `Authorization` is
 * forwarded on purpose: the upstream verifies the token again (defence in depth).
 */
export const REQUEST_PASSES: readonly HeaderPass[] = [
  stripHopByHop,
  stripInboundIdentity,
  setForwarded,
  setRequestId,
  injectIdentity,
];

export function applyRequestPasses(headers: IncomingHttpHeaders, ctx: ForwardContext): void {
  for (const pass of REQUEST_PASSES) pass(headers, ctx);
}
