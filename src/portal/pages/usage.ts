import { type Month, monthSchema, type ProjectUsage } from '#admin';
import { html } from '../html/escape.ts';
import { usageChart } from '../html/usage-chart.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, loadProject, projectCrumbs, projectHref, type SessionRequest } from './common.ts';
import { sendProjectPage } from './project-page.ts';

const MONTH_NAMES = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const count = (n: number) => n.toLocaleString('en-US');

function shift(month: string, by: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, m - 1 + by, 1)).toISOString().slice(0, 7);
}

function monthOf(r: SessionRequest): Month | undefined {
  const asked = new URL(r.req.url ?? '/', 'http://portal.invalid').searchParams.get('month');
  const parsed = asked === null ? undefined : monthSchema.safeParse(asked);
  return parsed?.success ? parsed.data : undefined;
}

function quotaMeter(usage: ProjectUsage) {
  if (usage.quota === null) return html`<p class="hint">This project has no monthly quota.</p>`;
  const share = Math.min(100, (usage.calls / usage.quota) * 100);
  return html`<div class="quota">
<p><strong>${count(usage.calls)}</strong> of ${count(usage.quota)} calls this month (${share.toFixed(share < 10 ? 1 : 0)}%)${
    share >= 100 ? html` — the quota is used up: calls are refused until the month ends (UTC).` : ''
  }</p>
<meter class="quota-meter" min="0" max="${usage.quota}" low="${Math.floor(usage.quota * 0.8)}" high="${usage.quota - 1}" optimum="0" value="${Math.min(usage.calls, usage.quota)}" aria-label="Quota used">${share.toFixed(0)}%</meter>
</div>`;
}

/** The project's calls this month (or another) per UTC day, as the gateways counted them. */
async function usagePage(r: SessionRequest) {
  const project = await loadProject(r);
  if (!project) return;
  const usage = await r.app.service.projectUsage(actor(r), project.id, monthOf(r));
  const [year, m] = usage.month.split('-').map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const title = MONTH_NAMES.format(new Date(Date.UTC(year, m - 1, 1)));
  const busiest = usage.days.reduce((best, d) => (d.calls > best.calls ? d : best), { day: '', calls: 0 });
  const href = (month: string) => `${projectHref(r, project)}/usage?month=${month}`;
  const thisMonth = new Date().toISOString().slice(0, 7);
  const body = html`<h1>Usage</h1>
<nav class="month-nav" aria-label="Month">
<a href="${href(shift(usage.month, -1))}">← ${MONTH_NAMES.format(new Date(Date.UTC(year, m - 2, 1)))}</a>
<h2>${title}</h2>
${usage.month < thisMonth ? html`<a href="${href(shift(usage.month, 1))}">${MONTH_NAMES.format(new Date(Date.UTC(year, m, 1)))} →</a>` : html`<span></span>`}
</nav>
${quotaMeter(usage)}
<dl class="facts">
<div><dt>Calls</dt><dd>${count(usage.calls)}</dd></div>
<div><dt>Busiest day</dt><dd>${busiest.calls === 0 ? '—' : `${busiest.day.slice(8)} ${title.split(' ')[0]} (${count(busiest.calls)})`}</dd></div>
<div><dt>Daily average</dt><dd>${usage.days.length === 0 ? '—' : count(Math.round(usage.calls / usage.days.length))}</dd></div>
</dl>
<figure class="card chart-card">
${usageChart(usage.days, daysInMonth, `Calls per day in ${title}`)}
<figcaption>Calls per day (UTC) on the rate-limited API routes, bearer and key/secret alike.</figcaption>
</figure>
<details><summary>Calls per day as a table</summary>
<div class="table-wrap"><table><thead><tr><th scope="col">Day</th><th scope="col">Calls</th></tr></thead>
<tbody>${usage.days.map((d) => html`<tr><td>${d.day}</td><td>${count(d.calls)}</td></tr>`)}</tbody></table></div>
</details>`;
  sendProjectPage(
    r,
    {
      title: `Usage · ${project.name}`,
      crumbs: projectCrumbs(r, project, { label: 'Usage' }),
    },
    body,
  );
}

export const usageRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/projects/:id/usage', access: 'session', handle: usagePage },
];
