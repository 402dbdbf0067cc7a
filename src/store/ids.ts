import { randomBytes } from 'node:crypto';

/** The ids minted below: a type prefix and base64url, with room to grow. */
const ID_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Whether a string from a request may be one of our ids. Anything else names no record, and is
 * answered as unknown without a query: some strings (a NUL byte) PostgreSQL refuses outright,
 * which would fail the query instead of finding nothing.
 */
export function isWellFormedId(value: string): boolean {
  return ID_SHAPE.test(value);
}

/** Public identifiers: a type prefix and random base64url (unguessable, URL-safe). */
export function newAccountId(): string {
  return 'acc_' + randomBytes(12).toString('base64url');
}

export function newUserId(): string {
  return 'usr_' + randomBytes(12).toString('base64url');
}

export function newProjectId(): string {
  return 'prj_' + randomBytes(12).toString('base64url');
}

export function newClientId(): string {
  return 'cli_' + randomBytes(16).toString('base64url');
}

export function newApiKey(): string {
  return 'key_' + randomBytes(16).toString('base64url');
}
