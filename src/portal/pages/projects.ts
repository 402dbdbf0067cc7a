import { createProjectInput, parseInput } from '#admin';
import { PLANS } from '#common';
import type { Project } from '#store';
import { attempt } from '../attempt.ts';
import { csrfField, errorSummary, when } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { page } from '../html/layout.ts';
import { dataTable, type TableRow } from '../html/table.ts';
import { redirect, sendPage } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import {
  actor,
  oauthAvailability,
  planBadge,
  projectHref,
  type SessionRequest,
  setNotice,
  takeNotice,
} from './common.ts';

function projectRow(project: Project): TableRow {
  return {
    header: html`<a href="${projectHref(project)}">${project.name}</a>`,
    cells: [planBadge(project), oauthAvailability(project), when(project.createdAt)],
  };
}

async function projectsPage(
  r: SessionRequest,
  status = 200,
  error?: string,
  values: { name?: string; plan?: string } = {},
) {
  const projects = await r.app.service.listProjects(actor(r));
  const table = projects.length
    ? dataTable('Your projects', ['Name', 'Plan', 'OAuth 2.0 clients', 'Created'], projects.map(projectRow))
    : html`<p>No projects yet. Create the first one below.</p>`;
  const plan = values.plan ?? 'business';
  const body = html`<h1>Projects</h1>
<p>OAuth 2.0 clients are available on the <strong>business</strong> and <strong>enterprise</strong> plans only; free projects use API keys.</p>
${table}
<section aria-labelledby="create-project"><h2 id="create-project">Create a project</h2>
${errorSummary(error)}
<form method="post" action="/portal/projects" class="stack card">
${csrfField(r.session)}
<div class="field"><label for="project-name">Project name</label>
<input id="project-name" name="name" required maxlength="100" value="${values.name ?? ''}"${error ? html` aria-invalid="true" aria-describedby="form-error"` : ''}></div>
<div class="field"><label for="project-plan">Plan</label>
<select id="project-plan" name="plan">${PLANS.map((p) => html`<option value="${p}"${p === plan ? html` selected` : ''}>${p}</option>`)}</select></div>
<button type="submit">Create project</button>
</form></section>`;
  sendPage(
    r.res,
    status,
    page({ title: 'Projects', session: r.session, section: 'projects', notice: await takeNotice(r) }, body),
  );
}

async function createProject(r: SessionRequest) {
  const values = { name: r.form.get('name') ?? '', plan: r.form.get('plan') ?? '' };
  const result = await attempt(() => r.app.service.createProject(actor(r), parseInput(createProjectInput, values)));
  if (!result.ok) {
    const message = result.message.startsWith('name: required')
      ? 'Enter a project name.'
      : result.message.replace(/^name:/, 'Project name:');
    return projectsPage(r, result.status, message, values);
  }
  const created = result.value;
  await setNotice(r, `Project “${created.name}” created.`);
  redirect(r.res, `/portal/projects/${encodeURIComponent(created.id)}`);
}

export const projectsRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/portal', access: 'session', handle: (r) => redirect(r.res, '/portal/projects') },
  { method: 'GET', path: '/portal/projects', access: 'session', handle: (r) => projectsPage(r) },
  { method: 'POST', path: '/portal/projects', access: 'session', handle: createProject },
];
