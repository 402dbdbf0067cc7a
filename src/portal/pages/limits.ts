import { parseInput, type ProjectLimits, setLimitsInput } from '#admin';
import type { Project } from '#store';
import { attempt } from '../attempt.ts';
import { csrfField, errorSummary } from '../html/components.ts';
import { html } from '../html/escape.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import {
  actor,
  loadProject,
  planBadge,
  projectCrumbs,
  type Linked,
  projectHref,
  type SessionRequest,
  setNotice,
  takeNotice,
} from './common.ts';
import { sendProjectPage } from './project-page.ts';

const EXAMPLE = '{"monthlyQuota": 100000, "groups": {"validation": {"client": {"requests": 20, "windowSec": 1}}}}';

const limitsHref = (r: Linked, project: Project) => `${projectHref(r, project)}/limits`;

/** The operator's view of a project's rate-limit override, with the form that sets or clears it. */
async function showLimits(
  r: SessionRequest,
  project: Project,
  limits: ProjectLimits,
  draft?: string,
  problem?: string,
) {
  const current = limits.override === null ? '' : JSON.stringify(limits.override, null, 2);
  const body = html`<h1>Rate limits</h1>
<dl class="facts"><div><dt>Plan</dt><dd>${planBadge(project)}</dd></div>
<div><dt>Override</dt><dd>${limits.override === null ? 'None: the plan’s limits apply.' : html`<pre><code>${current}</code></pre>`}</dd></div></dl>
${errorSummary(problem)}
<form method="post" action="${limitsHref(r, project)}" class="stack">${csrfField(r.session)}
<div class="field"><label for="override">Override (JSON)</label>
<p class="hint" id="override-hint">What it names replaces the plan’s value for this project; <code>null</code> removes a limit. Every gateway applies it within half a second. Example: <code>${EXAMPLE}</code></p>
<textarea id="override" name="override" rows="8" aria-describedby="override-hint${problem ? ' form-error' : ''}">${draft ?? (current || EXAMPLE)}</textarea></div>
<div class="actions"><button type="submit">Save override</button></div></form>
${limits.override === null ? '' : html`<form method="post" action="${limitsHref(r, project)}/clear" class="actions">${csrfField(r.session)}<button type="submit" class="button-secondary">Clear override</button></form>`}`;
  sendProjectPage(
    r,
    {
      title: `Rate limits · ${project.name}`,
      crumbs: projectCrumbs(r, project, { label: 'Rate limits' }),
      notice: await takeNotice(r),
      status: problem ? 400 : 200,
    },
    body,
  );
}

async function limitsPage(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  await showLimits(r, project, await r.app.service.getProjectLimits(actor(r), project.id));
}

async function saveLimits(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  const draft = r.form.get('override') ?? '';
  let override: unknown;
  try {
    override = JSON.parse(draft);
  } catch {
    const limits = await r.app.service.getProjectLimits(actor(r), project.id);
    return showLimits(r, project, limits, draft, 'The override is not valid JSON.');
  }
  const result = await attempt(() =>
    r.app.service.setProjectLimits(actor(r), project.id, parseInput(setLimitsInput, { override })),
  );
  if (!result.ok) {
    const limits = await r.app.service.getProjectLimits(actor(r), project.id);
    return showLimits(r, project, limits, draft, result.message);
  }
  await setNotice(r, 'Override saved; every gateway applies it within half a second.');
  redirect(r.res, limitsHref(r, project));
}

async function clearLimits(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  await r.app.service.clearProjectLimits(actor(r), project.id);
  await setNotice(r, 'Override cleared: the plan’s limits apply again.');
  redirect(r.res, limitsHref(r, project));
}

export const limitsRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/limits', access: 'session', handle: limitsPage },
  { method: 'POST', path: '/projects/:id/limits', access: 'session', handle: saveLimits },
  { method: 'POST', path: '/projects/:id/limits/clear', access: 'session', handle: clearLimits },
];
