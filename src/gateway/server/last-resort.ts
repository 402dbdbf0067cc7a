import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '#common';
import { forwardState } from '../proxy/state.ts';
import type { CompiledRoute } from '../routing/compile.ts';
import type { RequestRecord } from './record.ts';
import { sendApiError } from './respond.ts';

/**
 * The last resort of the request path (issue 17): a bug that throws while one request is handled,
 * synchronously or in the continuation of its asynchronous token check, answers that request 500
 * `1099` in the documented body (the route's extra fields, `x-request-id`) and is logged; it never
 * reaches the process's uncaught-exception handler, which would end the gateway and every request
 * in flight with it. The connection is closed after the reply: how much of the request body was
 * read, or sent upstream, is unknown. A reply already started can only be cut.
 */
export function answerInternalError(
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  record: RequestRecord,
  route: CompiledRoute | undefined,
  error: unknown,
): void {
  log.error(
    { reqId: record.requestId, route: record.route, error: errorForLog(error, req.headers.authorization) },
    'request failed; answered 500',
  );
  const state = forwardState(req);
  if (state !== undefined) {
    // Its upstream request, if any, is abandoned; a proxy error it reports later must not answer again.
    state.answered = true;
    state.upstreamRequest?.destroy();
  }
  if (res.destroyed || res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  try {
    sendApiError(res, record, 'internal_error', {
      ...(route !== undefined ? { extra: route.errorFields } : {}),
      headers: { connection: 'close' },
    });
  } catch {
    res.destroy();
  }
}

/** Runs of token characters (RFC 6750 b64token without the dot, so each JWS segment is one run). */
const TOKEN_RUN = /[A-Za-z0-9\-_~+/=]{8,}/g;

/**
 * What the log gets of a thrown value: its type, message and stack for an Error, else only its
 * type (no conversion of an unknown value: it may not survive one). Any run of 8 or more token
 * characters that also occurs in the request's Authorization value is replaced, so a message
 * that quotes the token (or a slice of it) does not carry it into the log.
 */
export function errorForLog(error: unknown, authorization: string | undefined): Record<string, string> {
  try {
    if (!(error instanceof Error)) return { type: error === null ? 'null' : typeof error };
    const out: Record<string, string> = { type: typeof error.name === 'string' ? error.name.slice(0, 64) : 'Error' };
    if (typeof error.message === 'string') out['message'] = withoutCredential(error.message, authorization);
    if (typeof error.stack === 'string') out['stack'] = withoutCredential(error.stack, authorization);
    return out;
  } catch {
    // A getter that throws, a proxy: nothing more can be said safely.
    return { type: 'unreadable' };
  }
}

function withoutCredential(text: string, authorization: string | undefined): string {
  if (typeof authorization !== 'string' || authorization.length < 8) return text;
  return text.replace(TOKEN_RUN, (run) => (authorization.includes(run) ? '[redacted]' : run));
}
