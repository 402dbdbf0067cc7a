import type { ServerResponse } from 'node:http';
import { sendJson } from '#common';
import { shapedError } from '../routing/error-shape.ts';
import type { ForwardState } from './state.ts';

export type UpstreamFailure = 'upstream_unavailable' | 'upstream_timeout';

/**
 * 502/504 in the route's body shape (error-shape.ts: documented with its extra fields, or OAuth). If the upstream's reply
 * had already started there is no honest way to change the status: the connection is closed
 * so the client sees a truncated response rather than a spliced one.
 */
export function sendUpstreamFailure(res: ServerResponse, failure: UpstreamFailure, state: ForwardState): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const reply = shapedError(state.route.errorShape, failure, { extra: state.route.errorFields });
  state.note.errorCode = reply.code;
  sendJson(res, reply.status, reply.body, { ...reply.headers, 'x-request-id': state.note.requestId });
}
