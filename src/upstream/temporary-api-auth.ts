import type { Verifier } from '#auth';
import { authFailureResponse } from '#auth';
import type { ApiAuthenticator } from './api-authenticator.ts';

/**
 * TEMPORARY until `createApiAuthenticator` lands in `./api-auth/`: bearer tokens only, checked
 * with the same plugin as the gateway; no key/secret method and no 1025 project check.
 */
export function createTemporaryApiAuthenticator(verifier: Verifier): ApiAuthenticator {
  return {
    async authenticate(req, _query, route) {
      const decision = await verifier.authorize(req.headers.authorization, { scopes: [route.scope], match: 'all' });
      if (decision.ok) return { ok: true, projectId: decision.token.projectId, via: 'bearer' };
      const answer = authFailureResponse(decision, route.errorExtra);
      return { ok: false, status: answer.status, headers: { ...answer.headers }, body: answer.body };
    },
  };
}
