import { type ApiErrorKind, apiError, STORE_RETRY_AFTER_SEC } from '#common';
import { IssuerInputError, RotationTooEarlyError } from '#issuer';
import { StoreError, StoreUnavailableError } from '#store';

/**
 * An admin operation's refusal: an error kind of the one table (so the admin API's body has the
 * documented shape) plus an operator-facing message naming what was wrong.
 */
export class AdminError extends Error {
  override readonly name = 'AdminError';
  readonly kind: ApiErrorKind;
  readonly status: number;
  /** Fields the body carries beside the documented ones (a refused rotation's `not_before`). */
  readonly extra: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;
  constructor(
    kind: ApiErrorKind,
    message: string,
    status?: number,
    extra: Readonly<Record<string, unknown>> = {},
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.kind = kind;
    this.status = status ?? apiError(kind).status;
    this.extra = extra;
    this.headers = headers;
  }

  toResponse(): { status: number; body: unknown; headers: Readonly<Record<string, string>> } {
    const body = apiError(this.kind, { message: this.message, extra: this.extra }).body;
    return { status: this.status, body, headers: this.headers };
  }
}

export function badRequest(message: string): AdminError {
  return new AdminError('validation_failed', message);
}

export function notFound(what: string, id: string): AdminError {
  return new AdminError('record_not_found', `${what} ${JSON.stringify(id.slice(0, 64))} does not exist`);
}

/** 409: the request is well-formed but the target's state forbids it (a free plan's client, a name in use). */
export function conflict(message: string, extra: Readonly<Record<string, unknown>> = {}): AdminError {
  return new AdminError('validation_failed', message, 409, extra);
}

/** 503 `1055` with Retry-After: the store (database) does not answer; nothing was changed, or the log says what. */
export function storeUnavailable(): AdminError {
  return new AdminError(
    'store_unavailable',
    'the store (database) does not answer; try again shortly',
    undefined,
    {},
    {
      'retry-after': String(STORE_RETRY_AFTER_SEC),
    },
  );
}

/**
 * Our own errors, the issuer's refusals of bad input (a token that is not ours), the store's
 * refusals when a concurrent change beat our pre-checks, and a store that does not answer.
 */
export function asAdminError(error: unknown): AdminError | undefined {
  if (error instanceof AdminError) return error;
  if (error instanceof StoreUnavailableError) return storeUnavailable();
  if (error instanceof IssuerInputError) return badRequest(error.message);
  if (error instanceof StoreError && error.code === 'project_not_found')
    return new AdminError('record_not_found', error.message);
  if (error instanceof StoreError && error.code === 'plan_forbids_oauth') return conflict(error.message);
  if (error instanceof RotationTooEarlyError)
    return conflict(error.message, {
      not_before: new Date(error.notBefore).toISOString(),
      retry_after_sec: error.retryAfterSec,
    });
  if (error instanceof StoreError && error.code === 'client_name_taken') return conflict(`name: ${error.message}`);
  return undefined;
}
