import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from 'find-my-way';
import { ADMIN_OPERATIONS, AdminError, type AdminService, type Operation } from '#admin';
import { apiError, type Logger, sendJson } from '#common';
import { closeServer, createBoundedServer, listen } from '../http-server.ts';
import { logAccess, requestId } from '../request-context.ts';
import { createAdminAuth } from './auth.ts';
import { answer, type Params } from './operation-route.ts';
import { refusalResponse } from './respond.ts';

/** The admin API's routes: one per admin operation. */
export const ADMIN_ROUTES: readonly Operation[] = Object.values(ADMIN_OPERATIONS);

export interface AdminServerOptions {
  readonly service: AdminService;
  readonly log: Logger;
  readonly adminToken: string;
  readonly host: string;
  readonly port: number;
  /**
   * The account portal and the operator's console: `/portal…` and `/console…` requests go to them
   * before the admin-token check (each has its own sign-in).
   */
  readonly portal?: { handle(req: IncomingMessage, res: ServerResponse): void } | undefined;
}

export interface AdminServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The operators' API: its own port, loopback by default, every route behind the admin token. */
export async function startAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const log = options.log.child({ server: 'admin' });
  const authorized = createAdminAuth(options.adminToken);
  const router = buildRouter(options.service, log);
  const server = createBoundedServer((req, res) => {
    const id = requestId(req, res);
    logAccess(log, req, res, id);
    if (options.portal && /^\/(?:portal|console)(?:[/?]|$)/.test(req.url ?? '')) return options.portal.handle(req, res);
    if (!authorized(req)) {
      log.warn({ reqId: id, address: req.socket.remoteAddress }, 'admin: refused a request without the admin token');
      const { status, body } = apiError('invalid_credentials', {
        message: 'admin API: missing or wrong admin token (Authorization: Bearer <admin token>)',
      });
      sendJson(res, status, body, { 'www-authenticate': 'Bearer realm="tokengate-admin"' });
      req.resume();
      return;
    }
    router.lookup(req, res);
  });
  const url = await listen(server, options.port, options.host);
  return { url, close: () => closeServer(server) };
}

function buildRouter(service: AdminService, log: Logger) {
  const router = Router({
    ignoreTrailingSlash: true,
    maxParamLength: 200,
    defaultRoute: (req, res) => notMatched(router, req, res),
  });
  for (const route of ADMIN_ROUTES) {
    router.on(route.method, route.path, (req, res, params) => {
      void run(route, service, log, req, res, params);
    });
  }
  return router;
}

async function run(
  route: Operation,
  service: AdminService,
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  params: Params,
) {
  try {
    const result = await answer(route, service, req, params);
    sendJson(res, result.status, result.body, { 'cache-control': 'no-store' });
  } catch (error) {
    const refused = refusalResponse(error);
    if (refused) {
      // Logged as before: an operator sees why the database was not reached.
      if (error instanceof AdminError && error.kind === 'unavailable')
        log.error({ err: error.cause, route: route.path }, 'admin: the store does not answer');
      sendJson(res, refused.status, refused.body, refused.headers);
      return;
    }
    log.error({ err: error, route: route.path }, 'admin: request failed');
    const { status, body } = apiError('internal_error');
    if (!res.headersSent) sendJson(res, status, body);
    else res.destroy();
  }
}

/** 405 with `Allow` when the path exists under another method, else a JSON 404. */
function notMatched(router: Router.Instance<Router.HTTPVersion.V1>, req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
  const allowed = (['GET', 'POST', 'DELETE'] as const).filter((method) => router.find(method, path) !== null);
  req.resume();
  if (allowed.length > 0) {
    const { status, body } = apiError('method_not_allowed');
    sendJson(res, status, body, { allow: allowed.join(', ') });
    return;
  }
  const { status, body } = apiError('route_not_found', { message: 'No such admin endpoint' });
  sendJson(res, status, body);
}
