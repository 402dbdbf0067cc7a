import type { ServerResponse } from 'node:http';
import { apiError, sendJson } from '#common';
import type { ForwardState } from './state.ts';

export type UpstreamFailure = 'upstream_unavailable' | 'upstream_timeout';

/**
 * 502/504 in the documented body shape (with the route's extra fields). If the upstream's reply
 * had already started there is no honest way to change the status: the connection is closed
 * so the client sees a truncated response rather than a spliced one.
 */
export function sendUpstreamFailure(res: ServerResponse, failure: UpstreamFailure, state: ForwardState): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, body } = apiError(failure, { extra: state.route.errorFields });
  state.note.errorCode = body.error_code;
  sendJson(res, status, body, { 'x-request-id': state.note.requestId });
}
