import { type ApiErrorKind, apiError } from '#common';
import { SUPPORTED_ALGORITHMS } from './algorithms.ts';
import type { AuthFailure, AuthFailureKind, AuthHttpResponse } from './types.ts';

const REALM = 'Bearer realm="tokengate"';

// Failure → row of the shared error table (src/common/api-errors.ts).
const ERROR_KIND: Readonly<Record<AuthFailureKind, ApiErrorKind>> = {
  credentials_missing: 'credentials_missing',
  invalid_request: 'invalid_request',
  invalid_token: 'invalid_token',
  token_revoked: 'token_revoked',
  token_expired: 'token_expired',
  insufficient_scope: 'insufficient_scope',
  insufficient_claims: 'insufficient_claims',
  keys_unavailable: 'keys_unavailable',
  revocations_stale: 'revocations_stale',
  introspection_unavailable: 'introspection_unavailable',
  invalid_dpop_proof: 'invalid_dpop_proof',
  use_dpop_nonce: 'use_dpop_nonce',
};

// RFC 6750 §3: error_description is limited to %x20-21 / %x23-5B / %x5D-7E (no `"` or `\`).
function quoted(text: string): string {
  return text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '');
}

/** RFC 9449 §7.1: the proof algorithms a DPoP challenge names. */
const DPOP_REALM = `DPoP realm="tokengate", algs="${SUPPORTED_ALGORITHMS.join(' ')}"`;

/** The `error` of a DPoP challenge per failure (RFC 9449 §7.1, §9); the rest answer as Bearer does. */
const DPOP_ERROR: Partial<Record<AuthFailureKind, string>> = {
  invalid_dpop_proof: 'invalid_dpop_proof',
  use_dpop_nonce: 'use_dpop_nonce',
  invalid_token: 'invalid_token',
  token_revoked: 'invalid_token',
  token_expired: 'invalid_token',
  insufficient_scope: 'insufficient_scope',
  insufficient_claims: 'insufficient_scope',
};

/** RFC 6750 §3's `scope` attribute: the route's required scopes. */
function scopeAttribute(failure: AuthFailure): string {
  return failure.kind === 'insufficient_scope' ? `, scope="${failure.required?.scopes.join(' ') ?? ''}"` : '';
}

function challenge(failure: AuthFailure, message: string): string {
  if (failure.dpop === true) {
    const error = DPOP_ERROR[failure.kind];
    if (error !== undefined)
      return `${DPOP_REALM}, error="${error}", error_description="${quoted(message)}"${scopeAttribute(failure)}`;
  }
  switch (failure.kind) {
    case 'credentials_missing':
    case 'keys_unavailable':
    case 'revocations_stale':
    case 'introspection_unavailable':
      // No error attribute: the client sent nothing wrong (RFC 6750 §3.1).
      return REALM;
    case 'invalid_request':
      return `${REALM}, error="invalid_request", error_description="${quoted(message)}"`;
    case 'insufficient_claims':
      // RFC 6750 §3.1 defines no other code for "the token lacks the privileges": no scope attribute.
      return `${REALM}, error="insufficient_scope", error_description="${quoted(message)}"`;
    case 'insufficient_scope':
      return `${REALM}, error="insufficient_scope", error_description="${quoted(message)}"${scopeAttribute(failure)}`;
    default:
      return `${REALM}, error="invalid_token", error_description="${quoted(message)}"`;
  }
}

/**
 * The ONE place a verification failure becomes HTTP: status and body from the shared error table,
 * `WWW-Authenticate` per RFC 6750 (RFC 9449 for DPoP, with `DPoP-Nonce` when the failure carries
 * a nonce). `extraBodyFields` are a route's additions (autocomplete adds
 * `completions: []`). `failure.detail` is private and never copied into the response.
 */
export function authFailureResponse(
  failure: AuthFailure,
  extraBodyFields?: Readonly<Record<string, unknown>>,
): AuthHttpResponse {
  const { status, body } = apiError(ERROR_KIND[failure.kind], {
    ...(failure.expiredAt !== undefined ? { expiredAt: failure.expiredAt } : {}),
    ...(extraBodyFields !== undefined ? { extra: extraBodyFields } : {}),
  });
  const wwwAuthenticate = challenge(failure, body.message);
  const headers =
    failure.dpopNonce === undefined
      ? { 'www-authenticate': wwwAuthenticate }
      : { 'www-authenticate': wwwAuthenticate, 'dpop-nonce': failure.dpopNonce };
  return { status, headers, body };
}
