import type { ServerResponse } from 'node:http';
import { oauthErrorChannel, sendJson } from '#common';

/**
 * RFC 6749 §5.2 error codes this issuer answers with, plus `temporarily_unavailable` (§4.1.2.1):
 * 429 for a client throttled after failed authentications, 503 when the store does not answer.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'temporarily_unavailable'
  | 'server_error'
  /** RFC 9449 §5: a DPoP proof at the token endpoint is missing (the client must use DPoP) or invalid. */
  | 'invalid_dpop_proof'
  /** RFC 9449 §8: the proof lacks a current server nonce; `DPoP-Nonce` carries one. */
  | 'use_dpop_nonce';

const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  temporarily_unavailable: 429,
  server_error: 500,
  invalid_dpop_proof: 400,
  use_dpop_nonce: 400,
};

/** The challenge sent with every 401 (RFC 7617 needs a realm; RFC 9110 wants a challenge on 401). */
export const BASIC_CHALLENGE = 'Basic realm="tokengate"';

/**
 * A refusal of a token or revocation request. `description` is public and fixed text (never
 * an echo of client input, so it stays within RFC 6749's allowed characters and leaks nothing).
 */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  readonly code: OAuthErrorCode;
  readonly status: number;
  readonly description: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: OAuthErrorCode,
    description: string,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(`${code}: ${description}`);
    this.code = code;
    this.description = description;
    this.status = options.status ?? STATUS[code];
    this.headers = options.headers ?? {};
  }
}

/** Headers of every token/revocation endpoint response, success or error (RFC 6749 §5.1). */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/** The one place an OAuthError becomes an HTTP response. */
export function sendOAuthError(res: ServerResponse, error: OAuthError): void {
  const headers: Record<string, string> = { ...NO_STORE, ...error.headers };
  if (error.status === 401) headers['www-authenticate'] = BASIC_CHALLENGE;
  // For the upstream's metrics and traces: which error this response carries.
  if (oauthErrorChannel.hasSubscribers) oauthErrorChannel.publish({ res, code: error.code });
  sendJson(res, error.status, { error: error.code, error_description: error.description }, headers);
}
