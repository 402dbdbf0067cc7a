import { type Logger, systemClock } from '#common';
import { isStoreUnavailable, storeUnavailableAnswer } from '../store-unavailable.ts';
import { authenticateBearer } from './bearer.ts';
import { authenticateKeySecret } from './key-secret.ts';
import { cachedLookup } from './lookup-cache.ts';
import { refuse } from './refusal.ts';
import { usesBearer } from './scheme.ts';
import type { ApiAuthenticator, ApiAuthOptions } from './types.ts';

const DEFAULT_CACHE_TTL_MS = 1000;

/**
 * Request authentication of the upstream's validation routes: a Bearer token (verified again
 * with the gateway's plugin) or the public API's key/secret. Never throws: a store that does not
 * answer is answered 503 `1055` (Retry-After), any other failure 500 `1099`, in the route's body
 * shape, and logged.
 */
export function createApiAuthenticator(options: ApiAuthOptions): ApiAuthenticator {
  const ttlMs = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  if (!(Number.isInteger(ttlMs) && ttlMs >= 0)) throw new TypeError('cacheTtlMs must be an integer >= 0');
  const clock = options.clock ?? systemClock;
  const { store } = options;
  const projects = cachedLookup((id) => store.getProject(id), clock, ttlMs);
  const apiKeys = cachedLookup((key) => store.getApiKey(key), clock, ttlMs);
  // What any replica changed is dropped here at once; the TTL is the safety net.
  store.onChange?.((change) => {
    if (change.kind === 'resync') {
      projects.clear();
      apiKeys.clear();
    } else if (change.id === null) return;
    else if (change.kind === 'project') {
      projects.evict(change.id);
      apiKeys.evictWhere((key) => key.projectId === change.id);
    } else if (change.kind === 'account') projects.evictWhere((project) => project.accountId === change.id);
    else if (change.kind === 'api_key') apiKeys.evict(change.id);
  });
  const log = options.log.child({ component: 'api-auth' });
  // A child logger per route, made once: a pino child per request was an allocation on every call.
  const routeLogs = new Map<string, Logger>();
  const logFor = (path: string): Logger => {
    const made = routeLogs.get(path);
    if (made !== undefined) return made;
    const child = log.child({ route: path });
    routeLogs.set(path, child);
    return child;
  };

  return {
    async authenticate(req, query, route) {
      const authorization = req.headers.authorization;
      const routeLog = logFor(route.path);
      try {
        return usesBearer(authorization)
          ? await authenticateBearer(options.verifier, projects, authorization ?? '', route, routeLog, req)
          : await authenticateKeySecret(apiKeys, projects, query, authorization, route, routeLog, clock);
      } catch (error) {
        routeLog.error({ err: error }, 'api auth failed');
        if (isStoreUnavailable(error)) return { ok: false, ...storeUnavailableAnswer(route.errorExtra) };
        return refuse('internal_error', route);
      }
    },
  };
}
