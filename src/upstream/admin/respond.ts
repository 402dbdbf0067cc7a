import { ADMIN_ERRORS, AdminError } from '#admin';
import { type ApiErrorBody, type ApiErrorKind, apiError, BodyTooLargeError } from '#common';

interface Answer {
  readonly status: number;
  readonly body: ApiErrorBody;
  readonly headers: Readonly<Record<string, string>>;
}

/** An admin operation's refusal as the admin API answers it: the documented body, the message naming what was wrong. */
export function adminErrorResponse(error: AdminError): Answer {
  const entry: { readonly status: number; readonly error: ApiErrorKind; readonly retryAfterSec?: number } =
    ADMIN_ERRORS[error.kind];
  const body = apiError(entry.error, { message: error.message, extra: error.details }).body;
  const headers: Record<string, string> = {};
  if (entry.retryAfterSec !== undefined) headers['retry-after'] = String(entry.retryAfterSec);
  return { status: entry.status, body, headers };
}

/** The answer to a request refused for what it sent (a body over the limit, or an operation's refusal); undefined for a failure. */
export function refusalResponse(error: unknown): Answer | undefined {
  if (error instanceof BodyTooLargeError) {
    const { status, body } = apiError('payload_too_large', { message: `body exceeds ${error.limit} bytes` });
    return { status, body, headers: {} };
  }
  return error instanceof AdminError ? adminErrorResponse(error) : undefined;
}
