import type { IncomingMessage, ServerResponse } from 'node:http';
import { planAllowsOAuth, sendJson } from '#common';
import { authenticateClient, type ClientAuthDeps } from '../oauth/authenticate.ts';
import { CLIENT_AUTH_PARAMS } from '../oauth/credentials.ts';
import { tokenDpopKey, type TokenDpopDeps } from '../oauth/dpop.ts';
import { type FormParams, readForm } from '../oauth/form.ts';
import { grantLifetime } from '../oauth/lifetime.ts';
import { NO_STORE, OAuthError } from '../oauth/oauth-error.ts';
import { grantScopes } from '../oauth/scope.ts';
import { issueToken, type TokenContext } from '../tokens/issue-token.ts';
import { requirePost } from './oauth-route.ts';

/** What a token request may carry; any other parameter is ignored. */
const TOKEN_PARAMS: ReadonlySet<string> = new Set(['grant_type', ...CLIENT_AUTH_PARAMS, 'scope', 'expires_in']);

export interface TokenEndpointDeps extends ClientAuthDeps {
  readonly tokens: TokenContext;
  readonly dpop: TokenDpopDeps;
}

/**
 * `POST /oauth/token` (client credentials). Error precedence, first match wins:
 * 405 method → 400 content type → 413 size → 400 malformed body or a repeated parameter of the
 * grant (other parameters are ignored) → 400 malformed Basic / two mechanisms → 401 client
 * authentication (429 once the client id or the source address is over its failure limit;
 * correct credentials always pass) → 400 grant_type missing / 400 unsupported_grant_type →
 * 400 unauthorized_client (plan) → 400 invalid_scope → 400 expires_in → 400 invalid_dpop_proof
 * (a bad `DPoP` proof, or none from a client that must use DPoP) or use_dpop_nonce (no current
 * server nonce in it, DPOP_NONCE) → 401 client disabled while the request was reading it. With a
 * valid proof the token is bound to its key (`cnf.jkt`), its type is `DPoP`, and while nonces
 * are on the answer carries a fresh `DPoP-Nonce`.
 */
export async function tokenEndpoint(req: IncomingMessage, res: ServerResponse, deps: TokenEndpointDeps): Promise<void> {
  requirePost(req);
  const form = await readForm(req, TOKEN_PARAMS);
  const record = await authenticateClient(req, form, deps);
  const { client, project } = record;
  checkGrantType(form);
  if (!project || !planAllowsOAuth(project.plan)) {
    throw new OAuthError('unauthorized_client', 'the project plan does not include OAuth 2.0 client credentials');
  }
  const scopes = grantScopes(form.get('scope'), client.scopes);
  const lifetime = grantLifetime(form.get('expires_in'));
  const { jkt, headers } = await tokenDpopKey(req, client, deps.dpop);
  const issued = await issueToken(record, deps.clients, scopes, lifetime.seconds, deps.tokens, jkt);
  if (!issued) {
    deps.log.warn(
      { clientId: client.clientId, reason: 'client disabled during the request' },
      'client authentication failed',
    );
    throw new OAuthError('invalid_client', 'client authentication failed');
  }
  deps.log.info(
    {
      clientId: client.clientId,
      jti: issued.jti,
      kid: issued.kid,
      scope: scopes,
      expiresIn: lifetime.seconds,
      dpop: jkt !== undefined,
    },
    'token issued',
  );
  const body = {
    access_token: issued.token,
    token_type: jkt === undefined ? 'Bearer' : 'DPoP',
    expires_in: lifetime.seconds,
    scope: scopes.join(' '),
    // Extension: present only when the requested expires_in was above the maximum and was capped.
    ...(lifetime.capped ? { expires_in_capped: true } : {}),
  };
  sendJson(res, 200, body, { ...NO_STORE, ...headers });
}

function checkGrantType(form: FormParams): void {
  const grantType = form.get('grant_type');
  if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
  if (grantType !== 'client_credentials')
    throw new OAuthError('unsupported_grant_type', 'only client_credentials is supported');
}
