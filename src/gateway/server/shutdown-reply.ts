import type { ServerResponse } from 'node:http';
import { forwardState } from '../proxy/state.ts';
import { recordOf } from './record.ts';
import { sendApiError } from './respond.ts';

/**
 * The drain's answer to a request it can wait for no longer and whose reply has not started:
 * 503 `1054` in the documented shape, with the route's extra fields, `Connection: close` and the
 * request id, logged like any other reply of the gateway's own. Its upstream request, if sent,
 * is cancelled. Returns false when no request of the handler is behind the reply.
 */
export function sendShuttingDown(res: ServerResponse): boolean {
  const record = recordOf(res);
  if (record === undefined) return false;
  const state = forwardState(res.req);
  if (state !== undefined) {
    // Its proxy error, when the cancelled request reports it, must not answer a second time;
    // one still queued for an upstream socket is dropped when it gets one (either engine).
    state.answered = true;
    state.upstreamRequest?.destroy();
  }
  // Not forwarded yet (waiting for its token check): the route is found again, as admit found it.
  const match = state === undefined ? record.gen.router.match(record.method, res.req.url ?? '/') : undefined;
  const extra = state?.route.errorFields ?? (match?.kind === 'route' ? match.route.errorFields : undefined);
  sendApiError(res, record, 'shutting_down', { ...(extra ? { extra } : {}), headers: { connection: 'close' } });
  return true;
}
