import { expect } from 'vitest';
import { PortalClient, type PortalResponse } from '../console/console-client.ts';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';

type Json = Record<string, unknown>;

/** A person's browser in the account portal (`/portal`), reduced to HTTP. */
export class PeopleClient extends PortalClient {
  /** Opens the invitation link and sets the password (both fields), landing signed in. */
  async accept(inviteUrl: string, password: string, confirm = password): Promise<PortalResponse> {
    const url = new URL(inviteUrl);
    await this.get(`${url.pathname}${url.search}`);
    const token = url.searchParams.get('token') ?? '';
    return this.post('/portal/invitation', { token, password, confirm_password: confirm });
  }

  async signInAs(email: string, password: string): Promise<PortalResponse> {
    await this.get('/portal/login');
    return this.post('/portal/login', { email, password });
  }
}

export const PASSWORD = 'correct horse battery staple';

export interface TestAccount {
  readonly id: string;
  readonly name: string;
}

/** An account of the plan, made by the operator through the admin API. */
export async function createAccount(t: TestUpstream, name: string, plan = 'business'): Promise<TestAccount> {
  const res = await t.admin('POST', '/accounts', { name, plan });
  expect(res.status).toBe(201);
  return { id: String((res.body as Json)['id']), name };
}

/** The operator's invitation link into the account. */
export async function invite(t: TestUpstream, accountId: string, email: string, role: string): Promise<string> {
  const res = await t.admin('POST', `/accounts/${accountId}/invitations`, { email, role });
  expect(res.status).toBe(201);
  return String((res.body as Json)['invite_url']);
}

/** A person of the account with the role, signed in (through their invitation). */
export async function member(
  t: TestUpstream,
  account: TestAccount,
  email: string,
  role: string,
): Promise<PeopleClient> {
  const c = new PeopleClient(t.upstream.adminUrl);
  const res = await c.accept(await invite(t, account.id, email, role), PASSWORD);
  expect(res.status).toBe(303);
  return c;
}
