import { randomBytes } from 'node:crypto';

/** Public identifiers: a type prefix and random base64url (unguessable, URL-safe). */
export function newProjectId(): string {
  return 'prj_' + randomBytes(12).toString('base64url');
}

export function newClientId(): string {
  return 'cli_' + randomBytes(16).toString('base64url');
}

export function newApiKey(): string {
  return 'key_' + randomBytes(16).toString('base64url');
}
