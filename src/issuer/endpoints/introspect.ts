import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '#common';
import { authorizeCaller, type IntrospectionCallerDeps } from '../introspection/caller.ts';
import type { Inspector } from '../introspection/inspect.ts';
import { CLIENT_AUTH_PARAMS } from '../oauth/credentials.ts';
import { readForm } from '../oauth/form.ts';
import { NO_STORE, OAuthError } from '../oauth/oauth-error.ts';
import { requirePost } from './oauth-route.ts';

/** What an introspection request may carry (RFC 7662 §2.1); any other parameter is ignored. */
const INTROSPECT_PARAMS: ReadonlySet<string> = new Set(['token', 'token_type_hint', ...CLIENT_AUTH_PARAMS]);

export interface IntrospectEndpointDeps extends IntrospectionCallerDeps {
  readonly inspect: Inspector;
}

/**
 * `POST /oauth/introspect` (RFC 7662). Error precedence, first match wins: 405 method → 400
 * content type → 413 size (the token endpoint's 8 KiB) → 400 malformed body or a repeated
 * parameter → 401 caller authentication (429 past the failure limits) → 403 a client without the
 * `introspect` permission → 400 no `token`. Then always 200: the token's claims with
 * `active: true`, or `{"active": false}` alone whatever the reason (unknown, forged, expired,
 * revoked, its client disabled or gone, its project deleted, its account disabled); the reason
 * goes to the log. `token_type_hint` is accepted and ignored (§2.1 allows it: we issue one type).
 */
export async function introspectEndpoint(
  req: IncomingMessage,
  res: ServerResponse,
  deps: IntrospectEndpointDeps,
): Promise<void> {
  requirePost(req);
  const form = await readForm(req, INTROSPECT_PARAMS);
  const caller = await authorizeCaller(req, form, deps);
  const token = form.get('token');
  if (token === undefined) throw new OAuthError('invalid_request', 'token is required');
  const { answer, reason } = await deps.inspect(token);
  deps.log.info(
    {
      caller: caller.kind === 'client' ? caller.clientId : 'operator',
      active: answer.active,
      ...(answer.active ? { clientId: answer.client_id, jti: answer.jti } : { reason }),
    },
    'token introspected',
  );
  sendJson(res, 200, answer, NO_STORE);
}
