import { TokenEndpointError, TokenRequestError } from './errors.ts';

export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly scope: string | undefined;
}

/**
 * Reads a token endpoint answer: a 200 token response (RFC 6749 section 5.1, an `access_token`
 * of bearer token characters, `token_type` Bearer, positive integer `expires_in`), an OAuth error
 * body (section 5.2) as a TokenEndpointError, or anything else as a TokenRequestError
 * `invalid_response`; a failure carries `retryAfterMs` when given.
 */
export function parseTokenResponse(status: number, text: string | undefined, retryAfterMs?: number): IssuedToken {
  const body = parseJsonObject(text);
  if (status === 200 && body && isTokenBody(body)) {
    return { accessToken: body.access_token, expiresIn: body.expires_in, scope: optionalString(body.scope) };
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
    body.token_type.toLowerCase() === 'bearer' &&
    Number.isInteger(body.expires_in) &&
    (body.expires_in as number) > 0
  );
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
