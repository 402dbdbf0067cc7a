import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ClientAuthDeps } from '../oauth/authenticate.ts';
import { authenticateClient } from '../oauth/authenticate.ts';
import { CLIENT_AUTH_PARAMS } from '../oauth/credentials.ts';
import type { FormParams } from '../oauth/form.ts';
import { OAuthError } from '../oauth/oauth-error.ts';
import { sourceAddress } from '../oauth/source-address.ts';
import { trustedProxies } from '../oauth/trusted-proxies.ts';

export interface IntrospectionCallerDeps extends ClientAuthDeps {
  /** The operator's admin token: accepted as `Authorization: Bearer` from a loopback address only. */
  readonly adminToken?: string | undefined;
}

/** Who asked: a client holding the permission, or the operator on this host. */
export type IntrospectionCaller =
  | { readonly kind: 'client'; readonly clientId: string }
  | { readonly kind: 'operator' };

const isLoopback = trustedProxies(['127.0.0.0/8', '::1']);
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Who may introspect (RFC 7662 §2.1: the endpoint MUST require authorization). A client
 * authenticates exactly as at the token endpoint (Basic, form secret, private_key_jwt), and then
 * needs the `introspect` permission an operator grants: without it 403 `unauthorized_client`.
 * The operator's admin token is accepted as `Authorization: Bearer` when the request comes from
 * loopback (the address after the trusted proxies, so the local gateway's callers count by their
 * own address); anything else presented that way is 401 `invalid_client`, and every failed
 * authentication counts towards the token endpoint's failure limits.
 */
export async function authorizeCaller(
  req: IncomingMessage,
  form: FormParams,
  deps: IntrospectionCallerDeps,
): Promise<IntrospectionCaller> {
  const authorization = req.headers.authorization;
  if (authorization !== undefined && /^bearer(?: |$)/i.test(authorization)) return operatorCaller(req, form, deps);
  const { client } = await authenticateClient(req, form, deps);
  if (!client.introspect) {
    deps.log.warn({ clientId: client.clientId }, 'introspection refused: the client lacks the permission');
    throw new OAuthError('unauthorized_client', 'this client may not introspect tokens', { status: 403 });
  }
  return { kind: 'client', clientId: client.clientId };
}

function operatorCaller(req: IncomingMessage, form: FormParams, deps: IntrospectionCallerDeps): IntrospectionCaller {
  if (CLIENT_AUTH_PARAMS.some((name) => form.has(name)))
    throw new OAuthError('invalid_request', 'client authentication must use only one mechanism');
  const address = sourceAddress(req, deps.trustedProxies);
  const presented = BEARER.exec(req.headers.authorization ?? '')?.[1];
  const fromLoopback = isLoopback(address);
  if (presented !== undefined && deps.adminToken && fromLoopback && sameSecret(presented, deps.adminToken))
    return { kind: 'operator' };
  const refusal = deps.guard.failed(
    '(admin token)',
    address,
    new OAuthError('invalid_client', 'client authentication failed'),
  );
  deps.log.warn(
    { address, method: 'admin_token', reason: fromLoopback ? 'wrong admin token' : 'admin token from beyond loopback' },
    'introspection caller authentication failed',
  );
  throw refusal;
}

/** Both sides hashed first, so the comparison is constant-time whatever the lengths. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
