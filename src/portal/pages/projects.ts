import { accountProjectInput, createProjectInput, parseInput } from '#admin';
import { PLANS } from '#common';
import type { Account, Project } from '#store';
import { attempt } from '../attempt.ts';
import { csrfField, errorSummary, when } from '../html/components.ts';
import { type Html, html } from '../html/escape.ts';
import { dataTable, type TableRow } from '../html/table.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import {
  actor,
  type Linked,
  oauthAvailability,
  notFoundPage,
  planBadge,
  projectHref,
  type SessionRequest,
  setNotice,
  takeNotice,
} from './common.ts';
import { sendProjectPage } from './project-page.ts';

interface Values {
  name?: string;
  plan?: string;
  account?: string;
}

function projectRow(r: Linked, project: Project, accounts: ReadonlyMap<string, Account>): TableRow {
  const account = accounts.get(project.accountId);
  return {
    header: html`<a href="${projectHref(r, project)}">${project.name}</a>`,
    cells: [
      account?.name ?? project.accountId,
      planBadge(project),
      oauthAvailability(project),
      when(project.createdAt),
    ],
  };
}

/** The console names a plan (a new account); a person picks one of the accounts they may change. */
function createFields(r: SessionRequest, accounts: readonly Account[], values: Values): Html | string {
  if (r.app.mode === 'console') {
    const plan = values.plan ?? 'business';
    return html`<div class="field"><label for="project-plan">Plan (of the project's new account)</label>
<select id="project-plan" name="plan">${PLANS.map((p) => html`<option value="${p}"${p === plan ? html` selected` : ''}>${p}</option>`)}</select></div>`;
  }
  const writable = accounts.filter((a) => ['owner', 'developer'].includes(r.person?.roles[a.id] ?? ''));
  if (writable.length === 1) return html`<input type="hidden" name="account" value="${writable[0]?.id ?? ''}">`;
  return html`<div class="field"><label for="project-account">Account</label>
<select id="project-account" name="account">${writable.map((a) => html`<option value="${a.id}"${a.id === values.account ? html` selected` : ''}>${a.name}</option>`)}</select></div>`;
}

async function projectsPage(r: SessionRequest, status = 200, error?: string, values: Values = {}) {
  const [projects, accounts] = await Promise.all([
    r.app.service.listProjects(actor(r)),
    r.app.service.listAccounts(actor(r)),
  ]);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const table = projects.length
    ? dataTable(
        'Your projects',
        ['Name', 'Account', 'Plan', 'OAuth 2.0 clients', 'Created'],
        projects.map((p) => projectRow(r, p, byId)),
      )
    : html`<p>No projects yet.</p>`;
  const mayCreate =
    r.app.mode === 'console' || accounts.some((a) => ['owner', 'developer'].includes(r.person?.roles[a.id] ?? ''));
  const form = mayCreate
    ? html`<section aria-labelledby="create-project"><h2 id="create-project">Create a project</h2>
${errorSummary(error)}
<form method="post" action="${r.app.base}/projects" class="stack card">
${csrfField(r.session)}
<div class="field"><label for="project-name">Project name</label>
<input id="project-name" name="name" required maxlength="100" value="${values.name ?? ''}"${error ? html` aria-invalid="true" aria-describedby="form-error"` : ''}></div>
${createFields(r, accounts, values)}
<button type="submit">Create project</button>
</form></section>`
    : '';
  const body = html`<h1>Projects</h1>
<p>OAuth 2.0 clients are available on the <strong>business</strong> and <strong>enterprise</strong> plans only; free plans use API keys.</p>
${table}
${form}`;
  sendProjectPage(r, { title: 'Projects', notice: await takeNotice(r), status }, body);
}

async function createProject(r: SessionRequest) {
  const values = {
    name: r.form.get('name') ?? '',
    plan: r.form.get('plan') ?? '',
    account: r.form.get('account') ?? '',
  };
  const result = await attempt(() =>
    r.app.mode === 'console'
      ? r.app.service.createProject(actor(r), parseInput(createProjectInput, values))
      : r.app.service.createAccountProject(actor(r), values.account, parseInput(accountProjectInput, values)),
  );
  if (!result.ok) {
    // Another account's id in a forged form: the same 404 page as any unknown id.
    if (result.kind === 'not_found') return notFoundPage(r, 'That account does not exist.');
    const message = result.message.startsWith('name: required')
      ? 'Enter a project name.'
      : result.message.replace(/^name:/, 'Project name:');
    return projectsPage(r, result.status, message, values);
  }
  const created = result.value;
  await setNotice(r, `Project “${created.name}” created.`);
  redirect(r.res, `${r.app.base}/projects/${encodeURIComponent(created.id)}`);
}

export const projectsRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '', access: 'session', handle: (r) => redirect(r.res, `${r.app.base}/projects`) },
  { method: 'GET', path: '/projects', access: 'session', handle: (r) => projectsPage(r) },
  { method: 'POST', path: '/projects', access: 'session', handle: createProject },
];
