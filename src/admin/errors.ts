import { type ApiErrorKind, STORE_RETRY_AFTER_SEC } from '#common';
import { IssuerInputError, RotationTooEarlyError } from '#issuer';
import { StoreError, StoreUnavailableError } from '#store';

/**
 * Why an admin operation refused, each with its HTTP status and its code in the API error table
 * (docs/errors.md). The one place these are decided: the admin routes answer with them, the
 * portal shows its pages with the same status.
 */
export const ADMIN_ERRORS = {
  /** The input breaks a rule; the message names the field. */
  invalid_input: { status: 400, error: 'validation_failed' },
  /** No project or client with that id. */
  not_found: { status: 404, error: 'record_not_found' },
  /** A person's role in the account does not allow the change (a viewer creating a client), or only the operator may. */
  forbidden: { status: 403, error: 'validation_failed' },
  /** Well-formed, but the target's state forbids it (a free plan's client, a name in use, a next key too young). */
  conflict: { status: 409, error: 'validation_failed' },
  /** This upstream does not host what the operation works on (no address data set). */
  not_hosted: { status: 404, error: 'route_not_found' },
  /** Partly done, and the message says what is left (a disable stored, its revocation not). */
  incomplete: { status: 500, error: 'internal_error' },
  /** The store (database) does not answer: nothing was changed, or the log says what. Retry after a while. */
  unavailable: { status: 503, error: 'store_unavailable', retryAfterSec: STORE_RETRY_AFTER_SEC },
} as const satisfies Record<string, { status: number; error: ApiErrorKind; retryAfterSec?: number }>;

export type AdminErrorKind = keyof typeof ADMIN_ERRORS;

export interface AdminErrorOptions {
  /** Fields the admin API's body carries beside the documented ones (a refused rotation's `not_before`). */
  readonly details?: Readonly<Record<string, unknown>> | undefined;
  /** The failure behind it (a store that does not answer), for the log. */
  readonly cause?: unknown;
}

/** An admin operation's refusal: a stable kind plus an operator-facing message naming what was wrong. */
export class AdminError extends Error {
  override readonly name = 'AdminError';
  readonly kind: AdminErrorKind;
  readonly details: Readonly<Record<string, unknown>>;
  constructor(kind: AdminErrorKind, message: string, options: AdminErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.details = options.details ?? {};
  }

  get status(): number {
    return ADMIN_ERRORS[this.kind].status;
  }
}

export function badRequest(message: string): AdminError {
  return new AdminError('invalid_input', message);
}

export function notFound(what: string, id: string): AdminError {
  return new AdminError('not_found', `${what} ${JSON.stringify(id.slice(0, 64))} does not exist`);
}

export function conflict(message: string, details?: Readonly<Record<string, unknown>>): AdminError {
  return new AdminError('conflict', message, { details });
}

/** The store (database) does not answer; nothing was changed, or the log says what. */
export function storeUnavailable(cause: unknown): AdminError {
  return new AdminError('unavailable', 'the store (database) does not answer; try again shortly', { cause });
}

/**
 * Our own errors, the issuer's refusals of bad input (a token that is not ours) or of a rotation
 * too early, the store's refusals when a concurrent change beat our pre-checks, and a store that
 * does not answer.
 */
export function asAdminError(error: unknown): AdminError | undefined {
  if (error instanceof AdminError) return error;
  if (error instanceof StoreUnavailableError) return storeUnavailable(error);
  if (error instanceof IssuerInputError) return badRequest(error.message);
  if (error instanceof StoreError && (error.code === 'project_not_found' || error.code === 'account_not_found'))
    return new AdminError('not_found', error.message);
  if (error instanceof StoreError && error.code === 'plan_forbids_oauth') return conflict(error.message);
  if (error instanceof RotationTooEarlyError)
    return conflict(error.message, {
      not_before: new Date(error.notBefore).toISOString(),
      retry_after_sec: error.retryAfterSec,
    });
  if (error instanceof StoreError && (error.code === 'last_owner' || error.code === 'last_factor'))
    return conflict(error.message);
  if (error instanceof StoreError && error.code === 'passkey_registered') return conflict(error.message);
  if (error instanceof StoreError && error.code === 'client_name_taken') return conflict(`name: ${error.message}`);
  return undefined;
}
