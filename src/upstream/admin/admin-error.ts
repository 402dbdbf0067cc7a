import { type ApiErrorKind, apiError } from '#common';

/**
 * A request-time failure of the admin API: an error kind of the one table (so the body has the
 * documented shape) plus an operator-facing message naming what was wrong.
 */
export class AdminError extends Error {
  override readonly name = 'AdminError';
  readonly kind: ApiErrorKind;
  readonly status: number;
  constructor(kind: ApiErrorKind, message: string, status?: number) {
    super(message);
    this.kind = kind;
    this.status = status ?? apiError(kind).status;
  }

  toResponse(): { status: number; body: unknown } {
    return { status: this.status, body: apiError(this.kind, { message: this.message }).body };
  }
}

export function badRequest(message: string): AdminError {
  return new AdminError('validation_failed', message);
}

export function notFound(what: string, id: string): AdminError {
  return new AdminError('record_not_found', `${what} ${JSON.stringify(id.slice(0, 64))} does not exist`);
}

/** 409: the request is well-formed but the target's state forbids it (a free plan's client). */
export function conflict(message: string): AdminError {
  return new AdminError('validation_failed', message, 409);
}
