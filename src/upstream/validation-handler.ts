import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError, type Logger, sendJson } from '#common';
import type { ValidationRoute } from '#validation';
import type { ApiAuthenticator } from './api-auth/index.ts';
import { isStoreUnavailable, storeUnavailableAnswer } from './store-unavailable.ts';

/**
 * One validation route behind request authentication (defence in depth: the gateway already
 * checked a bearer token; a call that bypassed it is checked here the same way).
 */
export async function handleValidation(
  route: ValidationRoute,
  apiAuth: ApiAuthenticator,
  req: IncomingMessage,
  res: ServerResponse,
  log: Logger,
): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://upstream.invalid').searchParams;
  const auth = await apiAuth.authenticate(req, query, route);
  if (!auth.ok) {
    sendJson(res, auth.status, auth.body, auth.headers);
    return;
  }
  try {
    const result = await route.handle({ query, projectId: auth.projectId, log });
    sendJson(res, result.status, result.body);
  } catch (error) {
    log.error({ err: error, route: route.path }, 'validation handler failed');
    if (isStoreUnavailable(error)) {
      const { status, body, headers } = storeUnavailableAnswer(route.errorExtra);
      sendJson(res, status, body, headers);
      return;
    }
    const { status, body } = apiError('internal_error', { extra: route.errorExtra });
    sendJson(res, status, body);
  }
}
