import type { SessionListing } from '#store';
import { createHash } from 'node:crypto';
import { csrfField, when } from '../html/components.ts';
import { deviceName } from '../html/device.ts';
import { type Html, html } from '../html/escape.ts';
import { dataTable, type TableRow } from '../html/table.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { type SessionRequest, setNotice } from './common.ts';

/** How the store names a session (the digest of its id): tells the current one in the list. */
const digest = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

function sessionRow(r: SessionRequest, listed: SessionListing, current: boolean): TableRow {
  const end = current
    ? html`<strong>This session</strong>`
    : html`<form method="post" action="${r.app.base}/settings/sessions/${listed.seq}/end" class="inline">${csrfField(r.session)}<button type="submit" class="button-small button-danger">Sign out<span class="visually-hidden"> ${deviceName(listed.userAgent)}</span></button></form>`;
  return {
    header: deviceName(listed.userAgent),
    cells: [listed.address ?? '—', when(listed.lastSeenAt), when(listed.createdAt), end],
  };
}

/** The person's signed-in sessions, the current one marked, each of the others with its own sign-out. */
export async function sessionsSection(r: SessionRequest): Promise<Html | string> {
  if (!r.session.userId) return '';
  const listed = await r.app.sessions.list(r.session.userId);
  const own = digest(r.session.id);
  return html`<section aria-labelledby="sessions"><h2 id="sessions">Where you are signed in</h2>
${dataTable(
  'Your sessions',
  ['Device', 'Address', 'Last seen', 'Signed in', 'Action'],
  listed.map((s) => sessionRow(r, s, s.idHash === own)),
)}</section>`;
}

async function endSession(r: SessionRequest) {
  const seq = Number(r.params['seq'] ?? '');
  const ended =
    r.session.userId && Number.isSafeInteger(seq) ? await r.app.sessions.endOne(r.session.userId, seq) : false;
  if (ended) r.app.log.info({ userId: r.session.userId }, 'portal: a session of the person ended');
  await setNotice(r, ended ? 'That session is signed out.' : 'That session had ended already.');
  redirect(r.res, `${r.app.base}/settings`);
}

export const sessionRoutes: readonly PortalRoute[] = [
  { method: 'POST', path: '/settings/sessions/:seq/end', access: 'session', handle: endSession },
];
