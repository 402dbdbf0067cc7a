import { type CreatedInvitation, inviteInput, parseInput, ROLES, roleInput } from '#admin';
import type { Account, AccountPerson } from '#store';
import { attempt } from '../attempt.ts';
import { csrfField, errorSummary, secretPanel, when } from '../html/components.ts';
import { type Html, html } from '../html/escape.ts';
import { dataTable, type TableRow } from '../html/table.ts';
import { redirect } from '../http/respond.ts';
import type { PortalRoute } from '../routing.ts';
import { actor, type SessionRequest, setNotice, takeNotice } from './common.ts';
import { sendSessionPage } from './session-page.ts';
import { twoFactorRule } from './two-factor-rule.ts';

const accountHref = (r: SessionRequest, account: Account) => `${r.app.base}/accounts/${encodeURIComponent(account.id)}`;

function personRow(r: SessionRequest, account: Account, person: AccountPerson, owner: boolean): TableRow {
  const base = `${accountHref(r, account)}/people/${encodeURIComponent(person.userId)}`;
  const options = ROLES.map(
    (role) => html`<option value="${role}"${role === person.role ? html` selected` : ''}>${role}</option>`,
  );
  const actions = owner
    ? html`<form method="post" action="${base}/role" class="inline">${csrfField(r.session)}<label class="visually-hidden" for="role-${person.userId}">Role of ${person.email}</label><select id="role-${person.userId}" name="role">${options}</select> <button type="submit" class="button-small">Change role</button></form>
<form method="post" action="${base}/remove" class="inline">${csrfField(r.session)}<button type="submit" class="button-small button-danger">Remove<span class="visually-hidden"> ${person.email}</span></button></form>`
    : '';
  return { header: person.email, cells: [person.role, when(person.since), actions] };
}

function inviteForm(
  r: SessionRequest,
  account: Account,
  error?: string,
  values: { email?: string; role?: string } = {},
): Html {
  const role = values.role ?? 'developer';
  return html`<h3>Invite a person</h3>${errorSummary(error)}
<form method="post" action="${accountHref(r, account)}/invitations" class="stack card">${csrfField(r.session)}
<div class="field"><label for="invite-email-${account.id}">Email</label>
<input id="invite-email-${account.id}" name="email" type="email" required maxlength="254" value="${values.email ?? ''}"></div>
<div class="field"><label for="invite-role-${account.id}">Role</label>
<select id="invite-role-${account.id}" name="role">${ROLES.map((r) => html`<option value="${r}"${r === role ? html` selected` : ''}>${r}</option>`)}</select>
<p class="hint">Owners manage people and everything else; developers manage projects, clients, API keys and tokens; viewers only look.</p></div>
<button type="submit">Create invitation link</button></form>`;
}

/** Every account of the person with its people; owners also get the invite form and the role controls. */
async function peoplePage(
  r: SessionRequest,
  status = 200,
  failed?: { accountId: string; error: string; values: { email: string; role: string } },
) {
  const accounts = await r.app.service.listAccounts(actor(r));
  const sections = await Promise.all(
    accounts.map(async (account) => {
      const people = await r.app.service.listPeople(actor(r), account.id);
      const owner = r.person?.roles[account.id] === 'owner';
      const form = owner
        ? failed?.accountId === account.id
          ? inviteForm(r, account, failed.error, failed.values)
          : inviteForm(r, account)
        : html`<p class="hint">Only an owner of ${account.name} can invite people or change roles.</p>`;
      return html`<section aria-labelledby="people-${account.id}"><h2 id="people-${account.id}">${account.name} <span class="badge badge-${account.plan}">${account.plan}</span></h2>
${dataTable(
  `People of ${account.name}`,
  ['Email', 'Role', 'Since', owner ? 'Action' : ''],
  people.map((p) => personRow(r, account, p, owner)),
)}
${await twoFactorRule(r, account, owner)}
${form}</section>`;
    }),
  );
  const body = html`<h1>People</h1>${sections.length ? sections : html`<p>You belong to no account any more.</p>`}`;
  sendSessionPage(r, { title: 'People', section: 'people', notice: await takeNotice(r), status }, body);
}

/** The link appears in this POST response only (no-store), like a secret. */
async function invite(r: SessionRequest) {
  const accountId = r.params['accountId'] ?? '';
  const values = { email: r.form.get('email') ?? '', role: r.form.get('role') ?? '' };
  const result = await attempt(() => r.app.service.invitePerson(actor(r), accountId, parseInput(inviteInput, values)));
  if (!result.ok) {
    if (result.kind === 'not_found' || result.kind === 'forbidden') return refused(r, result.status, result.message);
    return peoplePage(r, result.status, { accountId, error: friendly(result.message), values });
  }
  invitationCreated(r, result.value);
}

function invitationCreated(r: SessionRequest, created: CreatedInvitation) {
  const body = html`<h1>Invitation created</h1>
<p>Send this link to <strong>${created.email}</strong> yourself (tokengate sends no mail). It lets them set a password and join as <strong>${created.role}</strong>; it works once, until ${when(created.expiresAt)}.</p>
${secretPanel('invite-url', 'Invitation link', created.inviteUrl)}
<p><a class="button" href="${r.app.base}/people">Done, back to people</a></p>`;
  sendSessionPage(r, { title: 'Invitation created', section: 'people', status: 201 }, body);
}

function changeMember(kind: 'role' | 'remove') {
  return async (r: SessionRequest) => {
    const accountId = r.params['accountId'] ?? '';
    const userId = r.params['userId'] ?? '';
    const result = await attempt(() =>
      kind === 'role'
        ? r.app.service.setPersonRole(
            actor(r),
            accountId,
            userId,
            parseInput(roleInput, { role: r.form.get('role') ?? '' }),
          )
        : r.app.service.removePerson(actor(r), accountId, userId),
    );
    if (!result.ok && (result.kind === 'not_found' || result.kind === 'forbidden'))
      return refused(r, result.status, result.message);
    await setNotice(r, result.ok ? (kind === 'role' ? 'Role changed.' : 'Person removed.') : result.message);
    redirect(r.res, `${r.app.base}/people`);
  };
}

/** A 404 says nothing of what was asked for: not even the id given echoes back. */
function refused(r: SessionRequest, status: number, message: string) {
  const title = status === 404 ? 'Not found' : 'Not allowed';
  if (status === 404) message = 'That account or person does not exist, or is not one of yours.';
  const body = html`<h1>${title}</h1><p>${message}</p><p><a href="${r.app.base}/people">Back to people</a></p>`;
  sendSessionPage(r, { title, section: 'people', status }, body);
}

function friendly(message: string): string {
  if (message.startsWith('email:')) return 'Enter the email address of the person to invite.';
  return message;
}

export const peopleRoutes: readonly PortalRoute[] = [
  { method: 'GET', path: '/people', access: 'session', handle: (r) => peoplePage(r) },
  { method: 'POST', path: '/accounts/:accountId/invitations', access: 'session', handle: invite },
  { method: 'POST', path: '/accounts/:accountId/people/:userId/role', access: 'session', handle: changeMember('role') },
  {
    method: 'POST',
    path: '/accounts/:accountId/people/:userId/remove',
    access: 'session',
    handle: changeMember('remove'),
  },
];
