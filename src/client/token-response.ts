import { TokenEndpointError, TokenRequestError } from './errors.ts';

/** How the token is presented: `Authorization: Bearer`, or `Authorization: DPoP` with a proof. */
export type TokenType = 'Bearer' | 'DPoP';

export interface IssuedToken {
  readonly accessToken: string;
  readonly tokenType: TokenType;
  readonly expiresIn: number;
  readonly scope: string | undefined;
}

export interface ParseContext {
  /** The `Retry-After` of the answer, in ms, for a failure to carry. */
  readonly retryAfterMs?: number | undefined;
  /** The request carried a DPoP proof, so a `token_type` of DPoP is one the client can use. */
  readonly dpop?: boolean;
}

/**
 * Reads a token endpoint answer: a 200 token response (RFC 6749 section 5.1, an `access_token`
 * of bearer token characters, `token_type` Bearer, or DPoP after a request with a proof, positive
 * integer `expires_in`), an OAuth error body (section 5.2) as a TokenEndpointError, or anything
 * else as a TokenRequestError `invalid_response`; a failure carries `retryAfterMs` when given.
 */
export function parseTokenResponse(status: number, text: string | undefined, context: ParseContext = {}): IssuedToken {
  const { retryAfterMs } = context;
  const body = parseJsonObject(text);
  if (status === 200 && body && isTokenBody(body)) {
    const tokenType = usableType(body.token_type, context);
    const { access_token: accessToken, expires_in: expiresIn } = body;
    if (tokenType !== undefined) return { accessToken, tokenType, expiresIn, scope: optionalString(body.scope) };
  }
  if (status >= 400 && body && typeof body.error === 'string') {
    throw new TokenEndpointError(status, body.error, optionalString(body.error_description), { retryAfterMs });
  }
  throw new TokenRequestError('invalid_response', `token endpoint answered HTTP ${status} without a usable body`, {
    status,
    retryAfterMs,
  });
}

interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope?: unknown;
}

/**
 * RFC 6750 section 2.1 b64token, what an Authorization: Bearer header can carry. Anything else
 * (a space, a line break, non-ASCII) would make every call throw a header error quoting the token.
 */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function isTokenBody(body: Record<string, unknown>): body is Record<string, unknown> & TokenBody {
  return (
    typeof body.access_token === 'string' &&
    BEARER_TOKEN.test(body.access_token) &&
    typeof body.token_type === 'string' &&
    Number.isInteger(body.expires_in) &&
    (body.expires_in as number) > 0
  );
}

/**
 * RFC 9449 §5: a DPoP token only to a request that sent a proof (without the key it is useless).
 * A Bearer token answers a proof when the issuer does not bind tokens; it is then sent as Bearer.
 */
function usableType(tokenType: string, context: ParseContext): TokenType | undefined {
  const type = tokenType.toLowerCase();
  if (type === 'bearer') return 'Bearer';
  return type === 'dpop' && context.dpop ? 'DPoP' : undefined;
}

/** RFC 9449 §8: the issuer asks for a proof with its nonce (400 `use_dpop_nonce`). */
export function asksForDpopNonce(status: number, text: string | undefined): boolean {
  return status === 400 && parseJsonObject(text)?.['error'] === 'use_dpop_nonce';
}

function parseJsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
