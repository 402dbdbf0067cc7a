import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '#common';
import { OAuthError, sendOAuthError } from '../oauth/oauth-error.ts';

export type OAuthHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** POST only: anything else is 405 with `Allow: POST`, answered before the body is read. */
export function requirePost(req: IncomingMessage): void {
  if (req.method === 'POST') return;
  req.resume();
  throw new OAuthError('invalid_request', 'method not allowed; use POST', { status: 405, headers: { allow: 'POST' } });
}

/** Runs an endpoint: refusals become RFC 6749 §5.2 bodies; anything unexpected a bare 500 (details logged). */
export function oauthRoute(handler: OAuthHandler, log: Logger): OAuthHandler {
  return async (req, res) => {
    try {
      await handler(req, res);
    } catch (error) {
      if (error instanceof OAuthError) return sendOAuthError(res, error);
      log.error({ err: error }, 'token endpoint failure');
      if (!res.headersSent) sendOAuthError(res, new OAuthError('server_error', 'internal error'));
    }
  };
}
