import type { ApiErrorKind } from '#common';

/**
 * The syntactic half of key/secret authentication: `key` from the query, `secret` from the query
 * or the raw Authorization value. Checked before any store lookup, in this order:
 * 1002 no key → 1000 malformed (repeated, too long, two different secrets) → 1004 no secret.
 */
export type KeySecretInput =
  | { readonly ok: true; readonly key: string; readonly secret: string }
  | { readonly ok: false; readonly kind: ApiErrorKind; readonly message?: string };

/** Our keys are ~`key_` + 22 characters and secrets 43; these bounds leave room and stop abuse. */
const MAX_KEY_LENGTH = 128;
const MAX_SECRET_LENGTH = 512;

export function readKeySecret(query: URLSearchParams, authorization: string | undefined): KeySecretInput {
  const keys = query.getAll('key');
  const querySecrets = query.getAll('secret');
  if (keys.length === 0 || keys.every((k) => k === '')) return { ok: false, kind: 'key_not_provided' };
  if (keys.length > 1) return invalid('Key must be given once');
  const key = keys[0] ?? '';
  if (key.length > MAX_KEY_LENGTH) return invalid(`Key is longer than ${MAX_KEY_LENGTH} characters`);
  if (querySecrets.length > 1) return invalid('Secret must be given once');
  const secret = pickSecret(querySecrets[0], authorization);
  if (secret === 'conflict')
    return invalid('Secret was sent both as a parameter and in the Authorization header with different values');
  if (secret === undefined) return { ok: false, kind: 'secret_not_provided' };
  if (secret.length > MAX_SECRET_LENGTH) return invalid(`Secret is longer than ${MAX_SECRET_LENGTH} characters`);
  return { ok: true, key, secret };
}

/** The header form is preferred by the public docs (secrets stay out of URLs); both forms must agree. */
function pickSecret(fromQuery: string | undefined, fromHeader: string | undefined): string | 'conflict' | undefined {
  const query = fromQuery === '' ? undefined : fromQuery;
  const header = fromHeader === '' ? undefined : fromHeader;
  if (query !== undefined && header !== undefined && query !== header) return 'conflict';
  return header ?? query;
}

function invalid(message: string): KeySecretInput {
  return { ok: false, kind: 'validation_failed', message };
}
