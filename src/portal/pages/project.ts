import { planAllowsOAuth } from '#common';
import { when } from '../html/components.ts';
import { html } from '../html/escape.ts';
import type { PortalRoute } from '../routing.ts';
import {
  actor,
  freePlanMessage,
  loadProject,
  planBadge,
  projectCrumbs,
  projectHref,
  type SessionRequest,
  takeNotice,
} from './common.ts';
import { sendProjectPage } from './project-page.ts';

async function projectPage(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  const body = html`<h1>${project.name}</h1>
<dl class="facts">
<div><dt>Project id</dt><dd><code>${project.id}</code></dd></div>
<div><dt>Plan</dt><dd>${planBadge(project)}</dd></div>
<div><dt>Created</dt><dd>${when(project.createdAt)}</dd></div>
</dl>
${planAllowsOAuth(project.plan) ? html`<p>This plan includes OAuth 2.0 clients.</p>` : freePlanMessage(project)}
<p class="actions"><a class="button" href="${projectHref(r, project)}/keys">Keys</a> <a class="button button-secondary" href="${projectHref(r, project)}/usage">Usage</a>${r.app.mode === 'console' ? html` <a class="button button-secondary" href="${projectHref(r, project)}/limits">Rate limits</a>` : ''}</p>`;
  sendProjectPage(
    r,
    {
      title: project.name,
      crumbs: projectCrumbs(r, project),
      notice: await takeNotice(r),
    },
    body,
  );
}

/** "Keys": the way in to Credentials (API keys and OAuth 2.0 clients), as the spec's steps go. */
async function keysPage(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  const [clients, apiKeys] = await Promise.all([
    r.app.service.listClients(actor(r), project.id),
    r.app.service.listApiKeys(actor(r), project.id),
  ]);
  const body = html`<h1>Keys</h1>
<ul class="cards">
<li class="card"><h2><a href="${projectHref(r, project)}/credentials">Credentials</a></h2>
<p>API keys (${apiKeys.length}) and OAuth 2.0 clients (${clients.length}) of ${project.name}.</p></li>
${
  r.app.mode === 'console'
    ? html`<li class="card"><h2><a href="${r.app.base}/signing-keys">Token signing keys</a></h2>
<p>The keys tokengate signs access tokens with, shared by every account (operator only).</p></li>`
    : ''
}
</ul>`;
  sendProjectPage(
    r,
    {
      title: `Keys · ${project.name}`,
      crumbs: projectCrumbs(r, project, { label: 'Keys' }),
    },
    body,
  );
}

export const projectRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id', access: 'session', handle: projectPage },
  { method: 'GET', path: '/projects/:id/keys', access: 'session', handle: keysPage },
];
