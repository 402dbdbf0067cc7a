import { forwardHeaders } from '../proxy/passes/index.ts';
import type { ForwardState } from '../proxy/state.ts';
import type { CompiledRoute } from '../routing/compile.ts';
import { countingStream, needsCounting } from './body-limit.ts';
import type { RequestContext } from './context.ts';
import { sendApiError } from './respond.ts';
import type { Flow } from './steps.ts';

/**
 * The last step: the header passes, then the generation's forwarder. A chunked body streams
 * through the size counter (413 when it passes the limit). The request is the forwarder's now.
 */
export function forward(ctx: RequestContext): Flow {
  const { req, res } = ctx;
  const route = ctx.matched as CompiledRoute;
  const state: ForwardState = {
    note: ctx,
    route,
    timedOut: undefined,
    upstreamRequest: undefined,
    answered: false,
  };
  ctx.remoteAddress = req.socket.remoteAddress ?? '';
  ctx.encrypted = 'encrypted' in req.socket;
  // http-proxy-3 forwards `req.headers`: hand it the passed copy. The context is the passes'
  // ForwardContext (request id, peer, token), so no object is made to carry those.
  req.headers = forwardHeaders(req.headers, ctx, route.claimHeaders);
  ctx.trace?.forwarding(req.headers);
  const limit = ctx.gen.config.limits.maxBodyBytes;
  const body = needsCounting(req)
    ? countingStream(req, limit, () => {
        state.answered = true;
        state.upstreamRequest?.destroy();
        if (!res.headersSent)
          sendApiError(res, ctx, 'payload_too_large', {
            extra: route.errorFields,
            headers: { connection: 'close' },
          });
      })
    : undefined;
  ctx.gen.forwarder.forward(req, res, state, body);
  return false;
}
