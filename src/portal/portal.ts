import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from 'find-my-way';
import { AdminError, relyingParty } from '#admin';
import { BodyTooLargeError, remoteAddress, STORE_RETRY_AFTER_SEC, systemClock } from '#common';
import { StoreUnavailableError } from '#store';
import { sendAsset } from './assets.ts';
import { sameOriginRequest, validCsrfToken } from './auth/csrf.ts';
import { LoginLimiter } from './auth/login-limiter.ts';
import { DEFAULT_SESSION_TTL_MS, type Session, SESSION_COOKIE, storeSessions } from './auth/sessions.ts';
import { SignInLimits } from './auth/sign-in-limits.ts';
import { html } from './html/escape.ts';
import { type Mount, page } from './html/layout.ts';
import { readCookie } from './http/cookies.ts';
import { readForm } from './http/form.ts';
import { redirect, sendPage } from './http/respond.ts';
import { TWO_FACTOR_SETUP_PATH } from './pages/two-factor-paths.ts';
import { CONSOLE_ROUTES, PEOPLE_ROUTES } from './routes.ts';
import type { Person, PortalApp, PortalRoute } from './routing.ts';
import type { Portal, PortalOptions } from './types.ts';

/**
 * Builds the account portal (`/portal`, people signing in with email and password, each seeing
 * only their accounts) and the operator's console (`/console`, the admin token): two sites with
 * their own paths, cookies and pages, over the same admin service. The admin server hands them
 * every request under those paths.
 */
export function createPortal(options: PortalOptions): Portal {
  const clock = options.clock ?? systemClock;
  const shared = {
    service: options.service,
    sessions: storeSessions(options.store, options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS),
    limiter: new LoginLimiter(clock),
    signInLimits: new SignInLimits(clock),
    adminToken: options.adminToken,
    store: options.store,
    relyingParty: () => relyingParty(options.portalUrl?.() ?? 'http://localhost/portal'),
    log: options.log.child({ server: 'portal' }),
    clock,
  };
  const router = Router({
    ignoreTrailingSlash: true,
    maxParamLength: 200,
    defaultRoute: (req, res) => simplePage(mountOf(req.url), res, 404, 'Not found', 'There is no such page.'),
  });
  for (const [mount, routes] of [
    [{ base: '/portal', mode: 'people' }, PEOPLE_ROUTES],
    [{ base: '/console', mode: 'console' }, CONSOLE_ROUTES],
  ] as const) {
    const app: PortalApp = { ...shared, ...mount };
    // HEAD wherever GET is (RFC 9110 section 9.3.2): the same status and headers, Node leaves out the body.
    router.on(['GET', 'HEAD'], `${mount.base}/assets/:name`, (req, res, params) => {
      if (!sendAsset(req, res, params['name'] ?? '')) simplePage(app, res, 404, 'Not found', 'There is no such file.');
    });
    // Browsers ask for it on every page: an icon, not a 401 or a 404 page.
    router.on(['GET', 'HEAD'], `${mount.base}/favicon.ico`, (_req, res) =>
      redirect(res, `${mount.base}/assets/favicon.svg`),
    );
    for (const route of routes) {
      const methods = route.method === 'GET' ? ['GET' as const, 'HEAD' as const] : [route.method];
      router.on(methods, `${mount.base}${route.path}`, (req, res, params) => void run(app, route, req, res, params));
    }
  }
  return { handle: (req, res) => router.lookup(req, res) };
}

function mountOf(url: string | undefined): Mount {
  return /^\/console(?:[/?]|$)/.test(url ?? '')
    ? { base: '/console', mode: 'console' }
    : { base: '/portal', mode: 'people' };
}

/**
 * The session the cookie names, if it is this site's: a person's in the portal, the operator's in
 * the console (their cookies have different paths, but a session id is checked either way).
 */
async function findSession(app: PortalApp, req: IncomingMessage): Promise<Session | undefined> {
  const session = await app.sessions.find(readCookie(req, SESSION_COOKIE));
  if (!session) return undefined;
  return (session.userId !== null) === (app.mode === 'people') ? session : undefined;
}

/** The person and their roles, read afresh for every request: a removed person loses the account at once. */
async function findPerson(app: PortalApp, session: Session | undefined): Promise<Person | undefined> {
  if (!session?.userId) return undefined;
  const [user, memberships, factors] = await Promise.all([
    app.store.getUser(session.userId),
    app.store.listMemberships(session.userId),
    app.store.secondFactorState(session.userId),
  ]);
  if (!user) return undefined;
  return {
    id: user.id,
    email: user.email,
    roles: Object.fromEntries(memberships.map((m) => [m.accountId, m.role])),
    mustEnrol: factors.required && factors.factors === 0,
  };
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
    const found = await findSession(app, req);
    const person = await findPerson(app, found);
    const known = app.mode === 'people' && !person ? undefined : found;
    // A session past the password alone is signed in nowhere but on the second-factor page.
    const session = known?.pending ? undefined : known;
    const form = req.method === 'POST' ? await readForm(req) : new URLSearchParams();
    if (route.access === 'public') return await route.handle({ req, res, params, form, session, person, app });
    const allowed = route.access === 'pending' ? (known?.pending ? known : undefined) : session;
    if (!allowed) return redirect(res, `${app.base}/${session ? 'projects' : 'login'}`);
    if (req.method === 'POST' && !(sameOriginRequest(req) && validCsrfToken(form, allowed.csrfToken))) {
      app.log.warn({ path: route.path }, 'portal: form refused (CSRF check failed)');
      return simplePage(
        app,
        res,
        403,
        'Request refused',
        'This form was not sent from a current portal page. Go back, reload the page and try again.',
      );
    }
    if (route.access === 'session' && person?.mustEnrol && !route.beforeEnrolment)
      return redirect(res, `${app.base}${TWO_FACTOR_SETUP_PATH}`);
    if (route.access === 'session') noteUse(app, allowed, req);
    await route.handle({ req, res, params, form, session: allowed, person, app });
  } catch (error) {
    if (error instanceof BodyTooLargeError) return simplePage(app, res, 413, 'Too large', 'That form was too large.');
    // A refusal no page expected: a project deleted while its page was being put together.
    if (error instanceof AdminError && error.kind !== 'unavailable') return refusedPage(app, res, error);
    // The sessions read the store themselves; the admin service says `unavailable`, the store's failure its cause.
    const outage = error instanceof StoreUnavailableError || error instanceof AdminError;
    app.log.error(
      { err: error instanceof AdminError ? error.cause : error, path: route.path },
      outage ? 'portal: the store does not answer' : 'portal: request failed',
    );
    if (res.headersSent) res.destroy();
    else if (outage)
      simplePage(
        app,
        res,
        503,
        'Temporarily unavailable',
        'The portal cannot reach its database just now. Try again in a few seconds.',
        { 'retry-after': String(STORE_RETRY_AFTER_SEC) },
      );
    else
      simplePage(
        app,
        res,
        500,
        'Something went wrong',
        'The portal could not complete that request. It has been logged.',
      );
  }
}

/** The session's last use for the person's list of sessions; a failure to note it fails no page. */
function noteUse(app: PortalApp, session: Session, req: IncomingMessage): void {
  app.sessions
    .touch(session, remoteAddress(req))
    .catch((error: unknown) => app.log.warn({ err: error }, 'portal: session use not noted'));
}

function refusedPage(app: Mount, res: ServerResponse, error: AdminError): void {
  if (res.headersSent) return void res.destroy();
  // A 404 names nothing, not even the id given: the same page whether it never existed or is another account's.
  if (error.kind === 'not_found') simplePage(app, res, 404, 'Not found', 'There is no such page.');
  else simplePage(app, res, error.status, 'Request refused', error.message);
}

function simplePage(
  app: Mount,
  res: ServerResponse,
  status: number,
  title: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendPage(
    res,
    status,
    page(
      { app, title },
      html`<h1>${title}</h1><p>${message}</p><p><a href="${app.base}/projects">Go to the ${app.mode === 'people' ? 'portal' : 'console'}</a></p>`,
    ),
    headers,
  );
}
