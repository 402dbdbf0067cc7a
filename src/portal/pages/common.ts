import type { Actor } from '#admin';
import { planAllowsOAuth } from '#common';
import type { Project } from '#store';
import { portalActor } from '../actor.ts';
import type { Session } from '../auth/sessions.ts';
import { type Html, html } from '../html/escape.ts';
import { type Crumb, page } from '../html/layout.ts';
import { sendPage } from '../http/respond.ts';
import type { RouteRequest } from '../routing.ts';

export type SessionRequest = RouteRequest<Session>;

/** Who is asking: the signed-in person (the admin service checks their roles) or the operator. */
export function actor(r: SessionRequest): Actor {
  return portalActor(r.session, r.person, r.req);
}

/**
 * Whether the page should offer changes in the account: the operator always, a person as owner or
 * developer. Only what is offered: the admin service checks every change itself (403).
 */
export function mayChange(r: SessionRequest, accountId: string): boolean {
  if (!r.person) return true;
  const role = r.person.roles[accountId];
  return role === 'owner' || role === 'developer';
}

/** Links are under the mount's base: `/portal` for people, `/console` for the operator. */
export type Linked = Pick<RouteRequest<Session | undefined>, 'app'>;

export const projectHref = (r: Linked, project: Project) => `${r.app.base}/projects/${encodeURIComponent(project.id)}`;

export function projectCrumbs(r: Linked, project: Project, ...more: Crumb[]): Crumb[] {
  return [
    { label: 'Projects', href: `${r.app.base}/projects` },
    { label: project.name, href: projectHref(r, project) },
    ...more,
  ];
}

/**
 * Takes the one-shot notice out of the session for the page being rendered. A HEAD request
 * renders the page but shows nobody anything (an uptime check, a link checker): it leaves the
 * notice for the GET.
 */
export function takeNotice(r: SessionRequest): Promise<string | undefined> {
  if (r.req.method === 'HEAD') return Promise.resolve(undefined);
  return r.app.sessions.takeNotice(r.session);
}

/** Leaves a one-shot notice for the next page the session shows (never a secret). */
export function setNotice(r: SessionRequest, notice: string): Promise<void> {
  return r.app.sessions.setNotice(r.session, notice);
}

/** The project named in the path, or a 404 page (and undefined). */
export async function loadProject(r: SessionRequest): Promise<Project | undefined> {
  const id = r.params['id'] ?? '';
  const project = await r.app.service.findProject(actor(r), id);
  if (!project) notFoundPage(r, 'That project does not exist (it may have been deleted).');
  return project ?? undefined;
}

/** A member whose role does not allow the change (403): they see the thing, so it is no 404. */
export function forbiddenPage(r: SessionRequest, message: string): void {
  const body = html`<h1>Not allowed</h1><p>${message}</p><p><a href="${r.app.base}/projects">Back to projects</a></p>`;
  sendPage(r.res, 403, page({ app: r.app, title: 'Not allowed', session: r.session }, body));
}

export function notFoundPage(r: SessionRequest, message: string): void {
  const body = html`<h1>Not found</h1><p>${message}</p><p><a href="${r.app.base}/projects">Back to projects</a></p>`;
  sendPage(r.res, 404, page({ app: r.app, title: 'Not found', session: r.session }, body));
}

export function planBadge(project: Project): Html {
  return html`<span class="badge badge-${project.plan}">${project.plan}</span>`;
}

/** The spec's limit, said plainly wherever OAuth clients would be offered. */
export function oauthAvailability(project: Project): Html {
  if (planAllowsOAuth(project.plan)) return html`<span class="ok">Available</span>`;
  return html`<span class="muted">Not on the free plan</span>`;
}

export function freePlanMessage(project: Project): Html {
  return html`<div class="callout" role="note"><h2>OAuth 2.0 clients need a business or enterprise plan</h2>
<p>This project’s account is on the <strong>${project.plan}</strong> plan. OAuth 2.0 clients (client credentials and bearer tokens) come with the business and enterprise plans only. This project can still call the API with an API key and secret.</p>
<p>The plan belongs to the whole account and is changed by the operator of this tokengate: ask them for business or enterprise.</p></div>`;
}
