import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from 'find-my-way';
import { AdminError } from '#admin';
import { BodyTooLargeError, STORE_RETRY_AFTER_SEC, systemClock } from '#common';
import { StoreUnavailableError } from '#store';
import { loadAssets } from './assets.ts';
import { sameOriginRequest, validCsrfToken } from './auth/csrf.ts';
import { LoginLimiter } from './auth/login-limiter.ts';
import { DEFAULT_SESSION_TTL_MS, SESSION_COOKIE, storeSessions } from './auth/sessions.ts';
import { html } from './html/escape.ts';
import { page } from './html/layout.ts';
import { readCookie } from './http/cookies.ts';
import { readForm } from './http/form.ts';
import { redirect, sendPage } from './http/respond.ts';
import { PORTAL_ROUTES } from './routes.ts';
import type { PortalApp, PortalRoute } from './routing.ts';
import type { Portal, PortalOptions } from './types.ts';

/** Builds the account portal; the admin server hands it every `/portal` request. */
export function createPortal(options: PortalOptions): Portal {
  const clock = options.clock ?? systemClock;
  const app: PortalApp = {
    service: options.service,
    sessions: storeSessions(options.store, options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS),
    limiter: new LoginLimiter(clock),
    adminToken: options.adminToken,
    log: options.log.child({ server: 'portal' }),
    clock,
  };
  const sendAsset = loadAssets();
  const router = Router({
    ignoreTrailingSlash: true,
    maxParamLength: 200,
    defaultRoute: (_req, res) => simplePage(res, 404, 'Not found', 'There is no such portal page.'),
  });
  // HEAD wherever GET is (RFC 9110 section 9.3.2): the same status and headers, Node leaves out the body.
  router.on(['GET', 'HEAD'], '/portal/assets/:name', (_req, res, params) => {
    if (!sendAsset(res, params['name'] ?? '')) simplePage(res, 404, 'Not found', 'There is no such file.');
  });
  for (const route of PORTAL_ROUTES) {
    const methods = route.method === 'GET' ? ['GET' as const, 'HEAD' as const] : [route.method];
    router.on(methods, route.path, (req, res, params) => void run(app, route, req, res, params));
  }
  return { handle: (req, res) => router.lookup(req, res) };
}

async function run(
  app: PortalApp,
  route: PortalRoute,
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string | undefined>,
) {
  try {
    // In the store: any replica on the database serves it. A store failure lands in the catch below.
    const session = await app.sessions.find(readCookie(req, SESSION_COOKIE));
    const form = req.method === 'POST' ? await readForm(req) : new URLSearchParams();
    if (route.access === 'public') return await route.handle({ req, res, params, form, session, app });
    if (!session) return redirect(res, '/portal/login');
    if (req.method === 'POST' && !(sameOriginRequest(req) && validCsrfToken(form, session.csrfToken))) {
      app.log.warn({ path: route.path }, 'portal: form refused (CSRF check failed)');
      return simplePage(
        res,
        403,
        'Request refused',
        'This form was not sent from a current portal page. Go back, reload the page and try again.',
      );
    }
    await route.handle({ req, res, params, form, session, app });
  } catch (error) {
    if (error instanceof BodyTooLargeError) return simplePage(res, 413, 'Too large', 'That form was too large.');
    // A refusal no page expected: a project deleted while its page was being put together.
    if (error instanceof AdminError && error.kind !== 'unavailable') return refusedPage(res, error);
    // The sessions read the store themselves; the admin service says `unavailable`, the store's failure its cause.
    const outage = error instanceof StoreUnavailableError || error instanceof AdminError;
    app.log.error(
      { err: error instanceof AdminError ? error.cause : error, path: route.path },
      outage ? 'portal: the store does not answer' : 'portal: request failed',
    );
    if (res.headersSent) res.destroy();
    else if (outage)
      simplePage(
        res,
        503,
        'Temporarily unavailable',
        'The portal cannot reach its database just now. Try again in a few seconds.',
        { 'retry-after': String(STORE_RETRY_AFTER_SEC) },
      );
    else
      simplePage(res, 500, 'Something went wrong', 'The portal could not complete that request. It has been logged.');
  }
}

function refusedPage(res: ServerResponse, error: AdminError): void {
  if (res.headersSent) return void res.destroy();
  const title = error.kind === 'not_found' ? 'Not found' : 'Request refused';
  simplePage(res, error.status, title, error.message);
}

function simplePage(
  res: ServerResponse,
  status: number,
  title: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendPage(
    res,
    status,
    page({ title }, html`<h1>${title}</h1><p>${message}</p><p><a href="/portal/projects">Go to the portal</a></p>`),
    headers,
  );
}
