import { authFailureResponse, authorizeAsync, type DpopRequest, type Verifier } from '#auth';
import type { Logger } from '#common';
import type { ValidationRoute } from '#validation';
import type { Project } from '#store';
import type { Lookup } from './lookup-cache.ts';
import { refuse } from './refusal.ts';
import type { ApiAuthResult } from './types.ts';

/**
 * Bearer tokens are verified again here with the gateway's plugin (defence in depth), then the
 * project they name must still exist: a deleted project does not revoke its tokens, they are
 * answered 1025 instead (ARCHITECTURE.md, Decisions).
 */
export async function authenticateBearer(
  verifier: Verifier,
  projects: Lookup<Project>,
  authorization: string,
  route: ValidationRoute,
  log: Logger,
  request?: DpopRequest,
): Promise<ApiAuthResult> {
  const requirement = { scopes: [route.scope], match: 'all' } as const;
  const decision = await authorizeAsync(verifier, authorization, requirement, request);
  if (!decision.ok) {
    const { status, headers, body } = authFailureResponse(decision, route.errorExtra);
    log.info({ via: 'bearer', code: body.error_code, detail: decision.detail }, 'api auth refused');
    return { ok: false, status, headers, body };
  }
  const { token } = decision;
  if ((await projects(token.projectId)) === null) {
    log.info({ via: 'bearer', code: '1025', projectId: token.projectId, clientId: token.clientId }, 'api auth refused');
    return refuse('project_not_found', route);
  }
  return { ok: true, projectId: token.projectId, via: 'bearer', scopes: token.scopes, clientId: token.clientId };
}
