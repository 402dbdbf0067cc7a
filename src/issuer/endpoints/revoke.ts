import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '#common';
import type { Keyring } from '../keys/keyring.ts';
import { authenticateClient, type ClientAuthDeps } from '../oauth/authenticate.ts';
import { CLIENT_AUTH_PARAMS } from '../oauth/credentials.ts';
import { readForm } from '../oauth/form.ts';
import { NO_STORE, OAuthError } from '../oauth/oauth-error.ts';
import type { LiveRevocations } from '../revocation/live-revocations.ts';
import type { Revoker } from '../revocation/revoker.ts';
import { readOwnToken } from '../tokens/own-token.ts';
import { requirePost } from './oauth-route.ts';

/** What a revocation request may carry (RFC 7009 §2.1); any other parameter is ignored. */
const REVOKE_PARAMS: ReadonlySet<string> = new Set(['token', 'token_type_hint', ...CLIENT_AUTH_PARAMS]);

export interface RevokeEndpointDeps extends ClientAuthDeps {
  readonly keyring: Keyring;
  readonly revoker: Revoker;
  /** What this replica knows to be revoked: a revoked token is an invalid one, like an expired one. */
  readonly revocations: Pick<LiveRevocations, 'isRevoked'>;
  readonly issuer: string;
  readonly audience: string;
  readonly clock: Clock;
}

/**
 * `POST /oauth/revoke` (RFC 7009). The client authenticates as at the token endpoint and may
 * revoke its own tokens. Unknown, malformed, expired and already revoked tokens (its own or another
 * client's) answer 200 and change nothing (§2.2). A live token of another client is refused with 400
 * `unauthorized_client`, as §2.1 requires ("the request is refused and the client is informed of
 * the error"); it is not revoked and the attempt is logged. Telling the caller that much reveals nothing: it already holds the
 * token. `token_type_hint` is ignored.
 */
export async function revokeEndpoint(
  req: IncomingMessage,
  res: ServerResponse,
  deps: RevokeEndpointDeps,
): Promise<void> {
  requirePost(req);
  const form = await readForm(req, REVOKE_PARAMS);
  const { client } = await authenticateClient(req, form, deps);
  const token = form.get('token');
  if (token === undefined) throw new OAuthError('invalid_request', 'token is required');
  const claims = await readOwnToken(token, deps);
  // An expired or revoked token is an invalid one, whoever it was issued to: 200, nothing to revoke (§2.2).
  if (claims && !claims.expired && !deps.revocations.isRevoked(claims)) {
    if (claims.clientId !== client.clientId) {
      deps.log.warn(
        { clientId: client.clientId, owner: claims.clientId, jti: claims.jti },
        "revocation of another client's token refused",
      );
      throw new OAuthError('unauthorized_client', 'the token was not issued to this client');
    }
    await deps.revoker.revokeJti(claims.jti, claims.exp);
  }
  res.writeHead(200, { ...NO_STORE, 'content-length': 0 });
  res.end();
}
