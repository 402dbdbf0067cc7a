import type { Account, ActivityEntry } from '#store';
import { when } from '../html/components.ts';
import { type Html, html } from '../html/escape.ts';
import { dataTable } from '../html/table.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type SessionRequest } from './common.ts';
import { sendSessionPage } from './session-page.ts';

function accountLog(account: Account, entries: readonly ActivityEntry[]): Html {
  const rows = entries.map((e) => ({
    header: when(e.at),
    cells: [e.actor, e.action, html`<code>${e.target}</code>`, e.address ?? '—'],
  }));
  return html`<section aria-labelledby="activity-${account.id}"><h2 id="activity-${account.id}">${account.name}</h2>
${rows.length ? dataTable(`Activity of ${account.name}, newest first`, ['When', 'Who', 'What', 'Target', 'From'], rows) : html`<p>Nothing happened here yet.</p>`}</section>`;
}

/** The activity of each account the person owns (the service refuses the others). */
async function activityPage(r: SessionRequest) {
  const accounts = await r.app.service.listAccounts(actor(r));
  const sections = await Promise.all(
    accounts.map(async (account) =>
      r.person?.roles[account.id] === 'owner'
        ? accountLog(account, await r.app.service.accountActivity(actor(r), account.id))
        : html`<section><h2>${account.name}</h2><p class="hint">Only an owner of ${account.name} sees its activity.</p></section>`,
    ),
  );
  const body = html`<h1>Activity</h1><p class="hint">Who changed what, when (UTC) and from which address: the latest 500 entries per account.</p>${sections}`;
  sendSessionPage(r, { title: 'Activity', section: 'activity' }, body);
}

export const activityRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/activity', access: 'session', handle: (r) => activityPage(r) },
];
