import type { ServerResponse } from 'node:http';
import { type ApiErrorKind, sendJson } from '#common';
import { shapedError } from '../routing/error-shape.ts';
import type { RequestRecord } from './record.ts';

export interface ErrorReplyOptions {
  /** The route's extra body fields (autocomplete: `completions: []`). */
  readonly extra?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** A more precise message where the table allows one (1000 names what is invalid). */
  readonly message?: string;
  /**
   * A more precise status within the same error row: 1043 "Request too large" is 413 for a
   * body, 414 for a URL and 431 for headers (the shared table has one row for all three).
   */
  readonly status?: 413 | 414 | 431;
}

/**
 * Sends a gateway-decided error in the request's route's shape (the documented body, or the OAuth
 * one on the token and revocation endpoints: error-shape.ts) and notes its code for the access log.
 */
export function sendApiError(
  res: ServerResponse,
  record: RequestRecord,
  kind: ApiErrorKind,
  options: ErrorReplyOptions = {},
): void {
  const reply = shapedError(record.errorShape, kind, {
    ...(options.extra ? { extra: options.extra } : {}),
    ...(options.message ? { message: options.message } : {}),
  });
  record.errorCode = reply.code;
  sendJson(res, options.status ?? reply.status, reply.body, {
    ...reply.headers,
    ...options.headers,
    'x-request-id': record.requestId,
  });
}
