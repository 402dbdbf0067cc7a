import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from 'find-my-way';
import { apiError, type Logger, sendJson } from '#common';
import type { Issuer } from '#issuer';
import type { ValidationRoute } from '#validation';
import type { ApiAuthenticator } from './api-auth/index.ts';
import { type ReadinessChecks, sendHealth, sendReadiness } from './health.ts';
import { closeServer, createBoundedServer, listen } from './http-server.ts';
import { logAccess, requestId } from './request-context.ts';
import { isStoreUnavailable, storeUnavailableAnswer } from './store-unavailable.ts';
import type { UpstreamTracing } from './tracing/types.ts';
import { handleValidation } from './validation-handler.ts';
import { createPolicyFeed, POLICY_PATH } from './internal/policy-feed.ts';
import { receiveUsage, USAGE_PATH } from './internal/rate-limits.ts';
import type { RateLimitStore, UsageStore } from '#store';

/** The issuer's public paths (it answers their methods itself, 405 included). */
export const ISSUER_PATHS = [
  '/oauth/token',
  '/oauth/revoke',
  '/oauth/introspect',
  '/.well-known/jwks.json',
  '/.well-known/oauth-authorization-server',
] as const;
export const FEED_PATH = '/internal/revocations';

export interface PublicServerDeps {
  readonly issuer: Issuer;
  readonly apiAuth: ApiAuthenticator;
  readonly routes: readonly ValidationRoute[];
  readonly readiness: ReadinessChecks;
  readonly log: Logger;
  /** The rate-limit policy feed and usage reports of the gateways (internal/rate-limits.ts). */
  readonly store: RateLimitStore & UsageStore;
  readonly feedToken: string;
  /** Called once per request before it is routed (the upstream's metrics). */
  readonly observe?: (req: IncomingMessage, res: ServerResponse) => void;
  /** Spans per request, when tracing is on. */
  readonly tracing?: UpstreamTracing | undefined;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** The upstream's public server: issuer, revocation feed, health, validation routes. */
export async function startPublicServer(deps: PublicServerDeps, host: string, port: number) {
  const log = deps.log.child({ server: 'upstream' });
  const router = buildRouter(deps, log);
  const { tracing } = deps;
  const known = new Set<string>([
    ...ISSUER_PATHS,
    FEED_PATH,
    POLICY_PATH,
    USAGE_PATH,
    ...deps.routes.map((route) => route.path),
  ]);
  const server = createBoundedServer((req, res) => {
    const id = requestId(req, res);
    logAccess(log, req, res, id);
    deps.observe?.(req, res);
    const route = tracing === undefined ? undefined : routeName(req, known);
    if (tracing !== undefined && route !== undefined) tracing.request(req, res, route, () => router.lookup(req, res));
    else router.lookup(req, res);
  });
  const url = await listen(server, port, host);
  return { url, close: () => closeServer(server) };
}

function buildRouter(deps: PublicServerDeps, log: Logger) {
  const router = Router({
    // The API's paths work with and without a trailing slash (its curl examples use `/x/`).
    ignoreTrailingSlash: true,
    maxParamLength: 200,
    defaultRoute: (req, res) => guard(log, res, () => notMatched(router, deps, req, res)),
  });
  const on = (methods: string | string[], path: string, handler: Handler, extra?: ErrorExtra) =>
    router.on(methods as Router.HTTPMethod, path, (req, res) => guard(log, res, () => handler(req, res), extra));
  on(['GET', 'HEAD'], '/healthz', (_req, res) => sendHealth(res));
  on(['GET', 'HEAD'], '/readyz', (_req, res) => sendReadiness(res, deps.readiness));
  on('GET', FEED_PATH, (req, res) => deps.issuer.handleFeed(req, res));
  on('GET', POLICY_PATH, createPolicyFeed(deps.store, deps.feedToken));
  on('POST', USAGE_PATH, (req, res) => receiveUsage(deps.store, deps.feedToken, req, res));
  for (const path of ISSUER_PATHS)
    router.all(path, (req, res) => guard(log, res, () => issuerOr404(deps.issuer, req, res)));
  for (const route of deps.routes) {
    const handle: Handler = (req, res) => handleValidation(route, deps.apiAuth, req, res, log);
    const { tracing } = deps;
    on(
      'GET',
      route.path,
      tracing ? (req, res) => tracing.handler(route.path, res, () => handle(req, res) as Promise<void>) : handle,
      route.errorExtra,
    );
  }
  return router;
}

type ErrorExtra = Readonly<Record<string, unknown>>;

/** The span name of a request: its known path, `(unmatched)`, or undefined for health probes (no trace). */
function routeName(req: IncomingMessage, known: ReadonlySet<string>): string | undefined {
  const raw = (req.url ?? '/').split('?', 1)[0] ?? '/';
  const path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
  if (path === '/healthz' || path === '/readyz') return undefined;
  return known.has(path) ? path : '(unmatched)';
}

/**
 * The last resort of every route: any failure, a rejected promise included, becomes a JSON answer
 * in the documented shape with the route's extra fields (details to the log only): 503 `1055` with
 * Retry-After when the store does not answer, else 500 `1099`. No request's failure reaches the
 * process, and the reply is sent even when the thrown value cannot be logged.
 */
async function guard(
  log: Logger,
  res: ServerResponse,
  work: () => Promise<void> | void,
  extra?: ErrorExtra,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    const outage = isStoreUnavailable(error);
    try {
      log.error({ err: error }, outage ? 'request failed: the store does not answer' : 'request failed');
    } catch {
      log.error('request failed (the thrown value could not be logged)');
    }
    if (res.headersSent) res.destroy();
    else if (outage) {
      const { status, body, headers } = storeUnavailableAnswer(extra);
      sendJson(res, status, body, headers);
    } else {
      const { status, body } = apiError('internal_error', extra !== undefined ? { extra } : {});
      sendJson(res, status, body);
    }
  }
}

async function issuerOr404(issuer: Issuer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!(await issuer.handle(req, res))) sendNotFound(req, res);
}

/**
 * Paths the issuer may add later are still its own; then 405 with `Allow` (in the route's error
 * body shape for a validation path), else 404.
 */
async function notMatched(
  router: Router.Instance<Router.HTTPVersion.V1>,
  deps: PublicServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
) {
  if (await deps.issuer.handle(req, res)) return;
  const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
  const allowed = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter(
    (m) => router.find(m as Router.HTTPMethod, path) !== null,
  );
  if (allowed.length === 0) return sendNotFound(req, res);
  req.resume();
  const extra = deps.routes.find((route) => route.path === path || `${route.path}/` === path)?.errorExtra;
  const { status, body } = apiError('method_not_allowed', extra ? { extra } : {});
  sendJson(res, status, body, { allow: allowed.join(', ') });
}

function sendNotFound(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const { status, body } = apiError('route_not_found');
  sendJson(res, status, body);
}
