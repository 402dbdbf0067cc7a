import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, STORE_RETRY_AFTER_SEC } from '#common';
import { StoreUnavailableError } from '#store';
import { OAuthError, sendOAuthError } from '../oauth/oauth-error.ts';

export type OAuthHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** POST only: anything else is 405 with `Allow: POST`, answered before the body is read. */
export function requirePost(req: IncomingMessage): void {
  if (req.method === 'POST') return;
  req.resume();
  throw new OAuthError('invalid_request', 'method not allowed; use POST', { status: 405, headers: { allow: 'POST' } });
}

/**
 * Runs an endpoint: refusals become RFC 6749 §5.2 bodies; a store that does not answer 503
 * `temporarily_unavailable` with Retry-After; anything else unexpected 500 `server_error`
 * (details logged).
 */
export function oauthRoute(handler: OAuthHandler, log: Logger): OAuthHandler {
  return async (req, res) => {
    try {
      await handler(req, res);
    } catch (error) {
      if (error instanceof OAuthError) return sendOAuthError(res, error);
      const outage = error instanceof StoreUnavailableError;
      log.error(
        { err: error },
        outage ? 'token endpoint failure: the store does not answer' : 'token endpoint failure',
      );
      if (res.headersSent) return;
      sendOAuthError(res, outage ? storeUnavailable() : new OAuthError('server_error', 'internal error'));
    }
  };
}

/** RFC 6749 §5.2 leaves 503 to `temporarily_unavailable`'s own words: the server cannot handle it now. */
function storeUnavailable(): OAuthError {
  return new OAuthError('temporarily_unavailable', 'the service is temporarily unavailable; try again later', {
    status: 503,
    headers: { 'retry-after': String(STORE_RETRY_AFTER_SEC) },
  });
}
