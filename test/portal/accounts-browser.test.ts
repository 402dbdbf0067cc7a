import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../console/browser.ts';
import { createAccount, invite, type TestAccount } from './people-client.ts';
import {
  acceptInvitation,
  closePage,
  type PortalBrowserStack,
  runBrowser,
  startPortalBrowserStack,
} from './portal-browser.ts';

if (!runBrowser)
  console.warn(
    'portal account tests skipped: /usr/bin/chromium is missing and CI is unset (apt-get install -y chromium)',
  );

type Json = Record<string, unknown>;

/**
 * A form post a person can forge in their own browser: a form of their own page (so their session
 * and CSRF token), pointed at another path with other fields, and submitted. Returns the answer.
 */
async function forgedPost(
  page: Page,
  url: string,
  fields: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const answer = page.waitForResponse((res) => res.url() === url && res.request().method() === 'POST');
  const csrf = await page.locator('input[name="csrf_token"]').first().inputValue();
  await page.evaluate(`(() => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = ${JSON.stringify(url)};
    for (const [name, value] of Object.entries(${JSON.stringify({ csrf_token: csrf, ...fields })})) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  })()`);
  const res = await answer;
  const text = await res.text();
  await page.waitForLoadState();
  return { status: res.status(), text };
}

/**
 * Issue 19 in Chromium, between accounts and plans: a person of another account sees and touches
 * nothing of the first one (by URL or by forged post), and a free account is told why it has no
 * OAuth 2.0 clients and cannot make one.
 */
describe.skipIf(!runBrowser)('accounts kept apart and plans kept in Chromium', { timeout: 120_000 }, () => {
  let stack: PortalBrowserStack;
  let acme: TestAccount;
  let hobby: TestAccount;
  const a = { project: '', client: '', clientSecret: '', apiKey: '' };
  let hobbyProject = '';
  const project = async (accountId: string, name: string) => {
    const res = await stack.t.admin('POST', `/accounts/${accountId}/projects`, { name });
    expect(res.status).toBe(201);
    return String((res.body as Json)['id']);
  };
  const clientsOf = async (projectId: string) =>
    (await stack.t.admin('GET', `/projects/${projectId}/clients`)).body as Json[];

  beforeAll(async () => {
    stack = await startPortalBrowserStack();
    acme = await createAccount(stack.t, 'Acme Logistics', 'business');
    a.project = await project(acme.id, 'Parcel tracking');
    const client = (
      await stack.t.admin('POST', `/projects/${a.project}/clients`, { name: 'parcel-sync', scopes: ['phone'] })
    ).body as Json;
    a.client = String(client['client_id']);
    a.clientSecret = String(client['client_secret']);
    a.apiKey = String(((await stack.t.admin('POST', `/projects/${a.project}/apikeys`)).body as Json)['key']);
    hobby = await createAccount(stack.t, 'Hobby Works', 'free');
    hobbyProject = await project(hobby.id, 'Side project');
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('shows a person of another account the 404 page, with nothing of the first account, for each of its URLs', async () => {
    const globex = await createAccount(stack.t, 'Globex', 'business');
    await project(globex.id, 'Globex billing');
    const page = await stack.newPage();
    try {
      await acceptInvitation(stack, page, await invite(stack.t, globex.id, 'owner@globex.example', 'owner'));
      await page.getByRole('link', { name: 'Globex billing' }).waitFor();
      expect(await page.content()).not.toContain('Parcel tracking');
      const ofAcme = [
        'Acme Logistics',
        'Parcel tracking',
        'parcel-sync',
        a.project,
        a.client,
        a.apiKey,
        a.clientSecret,
      ];
      for (const path of [
        `/projects/${a.project}`,
        `/projects/${a.project}/keys`,
        `/projects/${a.project}/usage`,
        `/projects/${a.project}/credentials`,
        `/projects/${a.project}/credentials/api-keys`,
        `/projects/${a.project}/credentials/oauth-clients`,
        `/projects/${a.project}/credentials/oauth-clients/new`,
        `/projects/${a.project}/oauth-clients/${a.client}/disable`,
        `/projects/${a.project}/api-keys/${a.apiKey}/delete`,
        `/projects/${a.project}/oauth-clients/${a.client}/delete`,
      ]) {
        const res = await page.goto(stack.portal(path));
        expect({ path, status: res?.status() }).toEqual({ path, status: 404 });
        await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
        const content = await page.content();
        for (const leak of ofAcme) expect(content, `${path} shows ${leak}`).not.toContain(leak);
      }
      await screenshot(page, 'accounts-01-other-account-404');
    } finally {
      await closePage(page);
    }
  });

  it('refuses 404 the forged posts of a person of another account, with their own session and CSRF token, changing nothing', async () => {
    const initech = await createAccount(stack.t, 'Initech', 'business');
    const own = await project(initech.id, 'Initech reports');
    const page = await stack.newPage();
    try {
      await acceptInvitation(stack, page, await invite(stack.t, initech.id, 'dev@initech.example', 'developer'));
      await page.goto(stack.portal(`/projects/${own}/credentials/oauth-clients/new`));
      const posts: Array<[string, Record<string, string>]> = [
        [`/projects/${a.project}/oauth-clients/${a.client}/disable`, {}],
        [`/projects/${a.project}/oauth-clients/${a.client}/enable`, {}],
        [`/projects/${own}/oauth-clients/${a.client}/disable`, {}],
        [`/projects/${a.project}/api-keys/${a.apiKey}/delete`, {}],
        [`/projects/${own}/api-keys/${a.apiKey}/delete`, {}],
        [`/projects/${a.project}/oauth-clients/${a.client}/delete`, {}],
        [`/projects/${a.project}/credentials/oauth-clients`, { name: 'forged', scopes: 'phone' }],
        [`/projects/${a.project}/credentials/api-keys`, {}],
        ['/projects', { name: 'forged', account: acme.id }],
        [`/accounts/${acme.id}/invitations`, { email: 'mallory@initech.example', role: 'owner' }],
      ];
      for (const [path, fields] of posts) {
        await page.goto(stack.portal(`/projects/${own}`));
        const res = await forgedPost(page, stack.portal(path), fields);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.text).not.toContain('Acme Logistics');
        expect(res.text).not.toContain('parcel-sync');
      }
      // The same forgery on the person's own project does go through: the refusals above are isolation, not CSRF.
      await page.goto(stack.portal(`/projects/${own}`));
      const mine = await forgedPost(page, stack.portal(`/projects/${own}/credentials/oauth-clients`), {
        name: 'own-client',
        scopes: 'email',
      });
      expect(mine.status).toBe(201);
      expect(await clientsOf(a.project)).toEqual([expect.objectContaining({ client_id: a.client, enabled: true })]);
      const activity = (await stack.t.admin('GET', `/accounts/${acme.id}/activity`)).body as Json[];
      // Nothing done in Acme by anyone but the operator who set it up: no key, client, project or invitation.
      expect(activity.filter((e) => e['actor'] !== 'operator')).toEqual([]);
    } finally {
      await closePage(page);
    }
  });

  it('explains the plan on a free account’s OAuth 2.0 clients tab, offers no creation and refuses a forged create', async () => {
    const page = await stack.newPage();
    try {
      await acceptInvitation(stack, page, await invite(stack.t, hobby.id, 'owner@hobby.example', 'owner'));
      await page.getByRole('link', { name: 'Side project' }).click();
      await page.getByRole('link', { name: 'Keys', exact: true }).click();
      await page.getByRole('link', { name: 'Credentials', exact: true }).click();
      await page.getByRole('link', { name: 'OAuth 2.0 clients' }).click();
      await page.getByRole('heading', { name: 'OAuth 2.0 clients need a business or enterprise plan' }).waitFor();
      await page.getByText('This project’s account is on the free plan', { exact: false }).waitFor();
      expect(await page.getByRole('link', { name: 'Create new client' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /create/i }).count()).toBe(0);
      await screenshot(page, 'accounts-10-free-plan-clients');
      const res = await forgedPost(page, stack.portal(`/projects/${hobbyProject}/credentials/oauth-clients`), {
        name: 'forged',
        scopes: 'phone',
      });
      expect(res.status).toBe(409);
      expect(res.text).toContain('does not allow OAuth clients');
      expect(await clientsOf(hobbyProject)).toEqual([]);
    } finally {
      await closePage(page);
    }
  });
});
