/**
 * Typed failures of the client library. Messages name what went wrong but never carry the
 * client secret or a token.
 */

/** What a failed token request carries besides its error. */
export interface TokenFailureDetail {
  /** The `Retry-After` of a 429 or 503 answer, in ms. */
  readonly retryAfterMs?: number | undefined;
  readonly cause?: unknown;
}

/** The token endpoint answered with an OAuth error body (RFC 6749 section 5.2). */
export class TokenEndpointError extends Error {
  override readonly name = 'TokenEndpointError';
  /** HTTP status of the token response, e.g. 401 for `invalid_client`. */
  readonly status: number;
  /** The OAuth error code: `invalid_client`, `invalid_scope`, `unsupported_grant_type`, ... */
  readonly error: string;
  readonly errorDescription: string | undefined;
  /**
   * How long a 429 or 503 answer's `Retry-After` asked to wait, in ms from the answer (an
   * HTTP-date is read against the client's clock); undefined without one. The client honours it
   * up to 60 s (docs/api.md: client library).
   */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, error: string, errorDescription: string | undefined, detail: TokenFailureDetail = {}) {
    super(`token endpoint refused the request: ${error}${errorDescription ? ` (${errorDescription})` : ''}`, {
      cause: detail.cause,
    });
    this.status = status;
    this.error = error;
    this.errorDescription = errorDescription;
    this.retryAfterMs = detail.retryAfterMs;
  }
}

export type TokenRequestFailure = 'timeout' | 'network' | 'invalid_response';

/** The token request did not produce a usable answer: timeout, connection failure or a body we cannot use. */
export class TokenRequestError extends Error {
  override readonly name = 'TokenRequestError';
  readonly kind: TokenRequestFailure;
  /** HTTP status when a response arrived (invalid_response); undefined otherwise. */
  readonly status: number | undefined;
  /** As for TokenEndpointError: the `Retry-After` of a 429 or 503 answer, in ms. */
  readonly retryAfterMs: number | undefined;

  constructor(
    kind: TokenRequestFailure,
    message: string,
    options: TokenFailureDetail & { status?: number | undefined } = {},
  ) {
    super(message, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}
