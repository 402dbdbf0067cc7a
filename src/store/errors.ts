/** Why a store write was refused. Hosts map these to API errors; messages carry no secrets. */
export type StoreErrorCode =
  | 'project_not_found'
  | 'account_not_found'
  /** The change would leave an account without an owner. */
  | 'last_owner'
  /** The person's last second factor, and an account of theirs requires one. */
  | 'last_factor'
  /** The passkey (its credential id) is registered already. */
  | 'passkey_registered'
  | 'plan_forbids_oauth'
  /** The project already has a client of that name (compared without case and surrounding spaces). */
  | 'client_name_taken'
  | 'signing_key_not_found'
  /** A key of a rotation no longer has the status it was read with: another rotation landed first. */
  | 'signing_keys_changed'
  /** Another replica inserted the active signing key first: reload the key set. */
  | 'active_signing_key_exists'
  /** Another replica inserted the next signing key first: reload the key set. */
  | 'next_signing_key_exists';

export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
  }
}

/** A unique violation of the named constraint, from either backend (both carry `code`, `constraint`). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const fields = error as { code?: unknown; constraint?: unknown } | null;
  return fields?.code === '23505' && fields.constraint === constraint;
}

/**
 * The database did not answer: refused or lost connection, no answer within DATABASE_TIMEOUT_MS,
 * the server shutting down or out of connections. Not a refusal of the request: it may succeed
 * once the database is back, so hosts answer 503 with Retry-After. `cause` has the driver's error.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  constructor(cause: unknown) {
    super(`the database does not answer: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
