import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, tabTo } from '../console/browser.ts';
import { createAccount, invite, PASSWORD, type TestAccount } from './people-client.ts';
import {
  acceptInvitation,
  callThroughGateway,
  closePage,
  createClientAlongSpecPath,
  fitsWidth,
  PHONE,
  type PortalBrowserStack,
  runBrowser,
  secretNeverShownAgain,
  signIn,
  startPortalBrowserStack,
} from './portal-browser.ts';

if (!runBrowser)
  console.warn(
    'portal walk-through skipped: /usr/bin/chromium is missing and CI is unset (apt-get install -y chromium)',
  );

type Json = Record<string, unknown>;

/**
 * Issue 19's first "Done means" bullet in Chromium: people of one account, each from their own
 * invitation link, on the spec's path to a client, and the secret used through a real gateway.
 */
describe.skipIf(!runBrowser)('the account portal walked by its people (Chromium)', { timeout: 120_000 }, () => {
  let stack: PortalBrowserStack;
  let acme: TestAccount;
  let projectId = '';
  let clientId = '';

  beforeAll(async () => {
    stack = await startPortalBrowserStack();
    acme = await createAccount(stack.t, 'Acme Logistics', 'business');
    const project = await stack.t.admin('POST', `/accounts/${acme.id}/projects`, { name: 'Parcel tracking' });
    expect(project.status).toBe(201);
    projectId = String((project.body as Json)['id']);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  const spec = (name: string, shots: string) => ({
    project: 'Parcel tracking',
    projectId,
    name,
    scope: 'phone',
    shots,
  });

  it('takes an invited owner from the link to a client whose secret gets a token that passes the gateway', async () => {
    const page = await stack.newPage();
    try {
      const link = await invite(stack.t, acme.id, 'owner@acme.example', 'owner');
      await acceptInvitation(stack, page, link, 'walk-01-invitation');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(stack.portal('/login'));
      await signIn(stack, page, 'owner@acme.example', 'walk-02-sign-in');
      await screenshot(page, 'walk-03-projects');
      const client = await createClientAlongSpecPath(stack, page, spec('parcel-sync', 'walk-04'));
      clientId = client.clientId;
      await callThroughGateway(stack, client);
      await secretNeverShownAgain(page, client);
      await screenshot(page, 'walk-06-oauth-clients');
    } finally {
      await closePage(page);
    }
  });

  it('takes a developer of the same account along the same path to a working client', async () => {
    const page = await stack.newPage();
    try {
      const link = await invite(stack.t, acme.id, 'developer@acme.example', 'developer');
      await acceptInvitation(stack, page, link, 'walk-10-developer-invitation');
      const client = await createClientAlongSpecPath(stack, page, spec('depot-scanner', 'walk-11-developer'));
      expect(client.clientId).not.toBe(clientId);
      await callThroughGateway(stack, client);
      await secretNeverShownAgain(page, client);
      // The owner's client is there too, and the developer may disable either.
      await page.getByRole('cell', { name: clientId }).waitFor();
      expect(await page.getByRole('link', { name: /^Disable/ }).count()).toBe(2);
      await screenshot(page, 'walk-12-developer-clients');
    } finally {
      await closePage(page);
    }
  });

  it('reaches and submits the create form with Tab and Enter alone, with a visible focus ring', async () => {
    const page = await stack.newPage();
    try {
      await page.goto(stack.portal('/login'));
      await tabTo(page, 'Email');
      await page.keyboard.type('owner@acme.example');
      await tabTo(page, 'Password');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(stack.portal('/projects'));
      for (const step of ['Parcel tracking', 'Keys', 'Credentials', 'OAuth 2.0 clients', 'Create new client']) {
        await tabTo(page, step);
        const before = page.url();
        await page.keyboard.press('Enter');
        await page.waitForURL((url) => url.href !== before);
      }
      await tabTo(page, 'Client name');
      await page.keyboard.type('keyboard-client');
      await tabTo(page, 'email');
      await page.keyboard.press('Space');
      await tabTo(page, 'Create client');
      await screenshot(page, 'walk-07-keyboard-focus');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Client created' }).waitFor();
      expect(await page.getByLabel('Client secret').inputValue()).not.toBe('');
    } finally {
      await closePage(page);
    }
  });

  it('shows a viewer of the account the clients on a phone-sized screen, with no create button', async () => {
    const page = await stack.newPage(PHONE);
    try {
      const link = await invite(stack.t, acme.id, 'viewer@acme.example', 'viewer');
      await acceptInvitation(stack, page, link, 'walk-20-phone-invitation');
      expect(await fitsWidth(page)).toBe(true);
      await page.goto(stack.portal(`/projects/${projectId}/credentials/oauth-clients`));
      await page.getByRole('cell', { name: clientId }).waitFor();
      await page.getByText('lets you see clients, not create or disable them').waitFor();
      expect(await page.getByRole('link', { name: 'Create new client' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /create/i }).count()).toBe(0);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'walk-21-phone-viewer-clients');
    } finally {
      await closePage(page);
    }
  });
});
