import { systemClock } from '#common';
import { authenticateBearer } from './bearer.ts';
import { authenticateKeySecret } from './key-secret.ts';
import { createProjectCache } from './project-cache.ts';
import { refuse } from './refusal.ts';
import { usesBearer } from './scheme.ts';
import type { ApiAuthenticator, ApiAuthOptions } from './types.ts';

const DEFAULT_PROJECT_CACHE_TTL_MS = 1000;

/**
 * Request authentication of the upstream's validation routes: a Bearer token (verified again
 * with the gateway's plugin) or the public API's key/secret. Never throws: a store failure is
 * answered 1099 in the route's body shape and logged.
 */
export function createApiAuthenticator(options: ApiAuthOptions): ApiAuthenticator {
  const ttlMs = options.projectCacheTtlMs ?? DEFAULT_PROJECT_CACHE_TTL_MS;
  if (!(Number.isInteger(ttlMs) && ttlMs >= 0)) throw new TypeError('projectCacheTtlMs must be an integer >= 0');
  const projects = createProjectCache(options.store, options.clock ?? systemClock, ttlMs);
  const log = options.log.child({ component: 'api-auth' });

  return {
    async authenticate(req, query, route) {
      const authorization = req.headers.authorization;
      const routeLog = log.child({ route: route.path });
      try {
        return usesBearer(authorization)
          ? await authenticateBearer(options.verifier, projects, authorization ?? '', route, routeLog)
          : await authenticateKeySecret(options.store, projects, query, authorization, route, routeLog);
      } catch (error) {
        routeLog.error({ err: error }, 'api auth failed');
        return refuse('internal_error', route);
      }
    },
  };
}
