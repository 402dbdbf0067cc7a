/**
 * The one table of API-level errors: code, HTTP status and public message. The gateway and
 * the upstream both answer from it, and a test keeps it in sync with the table in docs/errors.md.
 * Messages are public: they never carry a token, a secret or a key id (those go to the log).
 */
export const API_ERRORS = {
  validation_failed: { code: '1000', status: 400, message: 'Validation error' },
  key_not_found: { code: '1001', status: 401, message: 'Key not found' },
  key_not_provided: { code: '1002', status: 401, message: 'Key not provided' },
  secret_not_provided: { code: '1004', status: 401, message: 'Secret not provided' },
  invalid_credentials: { code: '1006', status: 401, message: 'Invalid credentials' },
  record_not_found: { code: '1011', status: 404, message: 'The record you are trying to load does not exist' },
  invalid_token: { code: '1024', status: 401, message: 'Invalid bearer token' },
  token_revoked: { code: '1024', status: 401, message: 'OAuth key has been revoked' },
  project_not_found: { code: '1025', status: 400, message: 'Project not found for bearer token' },
  insufficient_scope: {
    code: '1026',
    status: 401,
    message: 'Token does not have the required scope for this endpoint',
  },
  invalid_dpop_proof: { code: '1027', status: 401, message: 'Invalid DPoP proof' },
  use_dpop_nonce: {
    code: '1028',
    status: 401,
    message: 'DPoP nonce required: sign a new proof with the DPoP-Nonce value',
  },
  insufficient_claims: {
    code: '1029',
    status: 403,
    message: "The token's claims do not allow this endpoint",
  },
  token_expired: { code: '1030', status: 401, message: 'Token expired at <timestamp>' },
  credentials_missing: {
    code: '1040',
    status: 401,
    message: 'Authentication required: send Authorization: Bearer <access token>',
  },
  route_not_found: { code: '1041', status: 404, message: 'No such endpoint' },
  method_not_allowed: { code: '1042', status: 405, message: 'Method not allowed' },
  payload_too_large: { code: '1043', status: 413, message: 'Request too large' },
  invalid_request: { code: '1044', status: 400, message: 'More than one Authorization header' },
  rate_limited: { code: '1045', status: 429, message: 'Rate limit exceeded; retry after the time in Retry-After' },
  quota_exhausted: { code: '1046', status: 429, message: 'Monthly quota exhausted until <timestamp>' },
  upstream_unavailable: { code: '1050', status: 502, message: 'Upstream service unavailable' },
  upstream_timeout: { code: '1051', status: 504, message: 'Upstream service timed out' },
  keys_unavailable: { code: '1052', status: 503, message: 'Token verification keys are not available yet' },
  revocations_stale: { code: '1053', status: 503, message: 'Revocation list is stale; try again shortly' },
  shutting_down: { code: '1054', status: 503, message: 'Gateway is shutting down' },
  store_unavailable: { code: '1055', status: 503, message: 'Service temporarily unavailable' },
  rate_limits_unavailable: { code: '1056', status: 503, message: 'Rate limiting is unavailable; try again shortly' },
  introspection_unavailable: {
    code: '1057',
    status: 503,
    message: 'Token introspection is unavailable; try again shortly',
  },
  untrusted_proxy: { code: '1060', status: 403, message: 'Forward-auth request from an untrusted address' },
  internal_error: { code: '1099', status: 500, message: 'Internal error' },
} as const satisfies Record<string, { code: string; status: number; message: string }>;

export type ApiErrorKind = keyof typeof API_ERRORS;

/**
 * `Retry-After` (seconds) of every 503 for a store that does not answer (1055, the token
 * endpoint's `temporarily_unavailable`, the admin API): the interval at which the upstream's
 * /readyz asks the store again.
 */
export const STORE_RETRY_AFTER_SEC = 5;

/** The documented body: `{message, error_code, success:false}` plus a route's extra fields. */
export interface ApiErrorBody {
  message: string;
  error_code: string;
  success: false;
  [extra: string]: unknown;
}

/** RFC 3339 UTC without milliseconds, as the 1030 message shows it. */
export function utcTimestamp(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Builds the status and body for an error kind. `message` overrides the table's text where the
 * table allows a detail (1000 names the invalid parameter; 1030 names the expiry time).
 */
export function apiError(
  kind: ApiErrorKind,
  options: { message?: string; expiredAt?: number; extra?: Readonly<Record<string, unknown>> } = {},
): { status: number; body: ApiErrorBody } {
  const entry = API_ERRORS[kind];
  let message: string = options.message ?? entry.message;
  if (kind === 'token_expired' && options.expiredAt !== undefined) {
    message = `Token expired at ${utcTimestamp(options.expiredAt)}`;
  }
  return { status: entry.status, body: { ...options.extra, message, error_code: entry.code, success: false } };
}

/**
 * RFC 6749 §5.2 error codes for the gateway's own answers on the token and revocation endpoints,
 * whose clients read `{error, error_description}`, never `error_code`.
 */
export type OAuthErrorCode = 'invalid_request' | 'server_error' | 'temporarily_unavailable';

/** An OAuth error body (RFC 6749 §5.2). */
export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
}

/**
 * The same row of the table in the OAuth shape, its code chosen by the row's status: 500 is
 * `server_error` (an unexpected condition), any other 5xx `temporarily_unavailable` (the issuer
 * cannot be reached or answer in time, the gateway drains, keys or revocations are not ready: try
 * again), and a 4xx `invalid_request` (the request itself: too large, a method or header not
 * allowed). The status stays the row's, and `error_description` is its public message.
 */
export function oauthError(
  kind: ApiErrorKind,
  options: { message?: string } = {},
): {
  status: number;
  body: OAuthErrorBody;
} {
  const { status, message } = API_ERRORS[kind];
  const error = status === 500 ? 'server_error' : status >= 500 ? 'temporarily_unavailable' : 'invalid_request';
  return { status, body: { error, error_description: options.message ?? message } };
}
