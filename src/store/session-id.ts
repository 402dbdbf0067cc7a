import { createHash } from 'node:crypto';

/** 256 random bits in base64url: the only shape a session id has. */
export const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * The table is keyed by this digest; the id (the cookie) is never stored, so a database reader
 * cannot sign in with what it reads. A fast hash is right for 256 random bits, as for client secrets.
 */
export function idHash(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}
