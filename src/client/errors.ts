/**
 * Typed failures of the client library. Messages name what went wrong but never carry the
 * client secret or a token.
 */

/** The token endpoint answered with an OAuth error body (RFC 6749 section 5.2). */
export class TokenEndpointError extends Error {
  override readonly name = 'TokenEndpointError';
  /** HTTP status of the token response, e.g. 401 for `invalid_client`. */
  readonly status: number;
  /** The OAuth error code: `invalid_client`, `invalid_scope`, `unsupported_grant_type`, ... */
  readonly error: string;
  readonly errorDescription: string | undefined;

  constructor(status: number, error: string, errorDescription: string | undefined, options: { cause?: unknown } = {}) {
    super(`token endpoint refused the request: ${error}${errorDescription ? ` (${errorDescription})` : ''}`, options);
    this.status = status;
    this.error = error;
    this.errorDescription = errorDescription;
  }
}

export type TokenRequestFailure = 'timeout' | 'network' | 'invalid_response';

/** The token request did not produce a usable answer: timeout, connection failure or a body we cannot use. */
export class TokenRequestError extends Error {
  override readonly name = 'TokenRequestError';
  readonly kind: TokenRequestFailure;
  /** HTTP status when a response arrived (invalid_response); undefined otherwise. */
  readonly status: number | undefined;

  constructor(kind: TokenRequestFailure, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
  }
}
