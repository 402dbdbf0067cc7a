import { type ApiErrorKind, apiError } from '#common';
import type { ValidationRoute } from '#validation';
import type { ApiAuthRefused } from './types.ts';

/**
 * 401 answers carry a challenge (RFC 9110 §15.5.2 requires one). Key/secret has no registered
 * scheme, so the challenge names the standard method this API also accepts.
 */
const CHALLENGE = 'Bearer realm="tokengate"';

/** A refusal from the shared error table, in the route's body shape (autocomplete adds `completions: []`). */
export function refuse(kind: ApiErrorKind, route: ValidationRoute, message?: string): ApiAuthRefused {
  const { status, body } = apiError(kind, {
    extra: route.errorExtra,
    ...(message !== undefined ? { message } : {}),
  });
  return { ok: false, status, headers: status === 401 ? { 'www-authenticate': CHALLENGE } : {}, body };
}
