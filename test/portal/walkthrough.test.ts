import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { chromiumPresent, launchChromium, screenshot, tabTo } from '../console/browser.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, invite, PASSWORD, type TestAccount } from './people-client.ts';

const runBrowser = chromiumPresent || Boolean(process.env['CI']);
if (!runBrowser)
  console.warn(
    'portal walk-through skipped: /usr/bin/chromium is missing and CI is unset (apt-get install -y chromium)',
  );

const PUBLIC_URL = 'http://tokengate.test';
const PHONE_CALL = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
type Json = Record<string, unknown>;

/**
 * Issue 19's first "Done means" bullet in Chromium: people of one account, each from their own
 * invitation link, on the spec's path to a client, and the secret used through a real gateway.
 */
describe.skipIf(!runBrowser)('the account portal walked by its people (Chromium)', { timeout: 120_000 }, () => {
  let t: TestUpstream;
  let gateway: RunningGateway;
  let browser: Browser;
  let acme: TestAccount;
  let projectId = '';
  let clientId = '';

  beforeAll(async () => {
    t = await startTestUpstream({ env: { PUBLIC_URL } });
    const env = {
      GATEWAY_PORT: '0',
      METRICS_PORT: '0',
      UPSTREAM_URL: t.upstream.url,
      PUBLIC_URL,
      REVOCATION_FEED_TOKEN: t.upstream.feedToken.value,
    };
    gateway = await startGateway(
      loadGatewayConfig(join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml'), env),
      { log: createLogger({ level: 'silent' }) },
    );
    await gateway.ready();
    acme = await createAccount(t, 'Acme Logistics', 'business');
    const project = await t.admin('POST', `/accounts/${acme.id}/projects`, { name: 'Parcel tracking' });
    expect(project.status).toBe(201);
    projectId = String((project.body as Json)['id']);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await t?.destroy();
  });

  const portal = (path: string) => `${t.upstream.adminUrl}/portal${path}`;
  const oauthTab = () => portal(`/projects/${projectId}/credentials/oauth-clients`);
  const fitsPhone = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= 390');

  /** Opens the invitation link, sets the password, and lands signed in on the projects. */
  async function acceptInvitation(page: Page, url: string, shot: string): Promise<void> {
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: 'Join your team on tokengate' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await screenshot(page, shot);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(portal('/projects'));
  }

  it('takes an invited owner from the link to a client whose secret gets a token that passes the gateway', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(10_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.upstream.adminUrl });
    const page = await context.newPage();
    try {
      await acceptInvitation(page, await invite(t, acme.id, 'owner@acme.example', 'owner'), 'walk-01-invitation');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(portal('/login'));
      await page.getByLabel('Email').fill('owner@acme.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await screenshot(page, 'walk-02-sign-in');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(portal('/projects'));
      await screenshot(page, 'walk-03-projects');

      // The spec's path: project → Keys → Credentials → OAuth 2.0 clients → Create new client.
      await page.getByRole('link', { name: 'Parcel tracking' }).click();
      await page.getByRole('heading', { level: 1, name: 'Parcel tracking' }).waitFor();
      await page.getByRole('link', { name: 'Keys', exact: true }).click();
      await page.getByRole('link', { name: 'Credentials', exact: true }).click();
      await page.getByRole('link', { name: 'OAuth 2.0 clients' }).click();
      await expect.poll(() => page.url()).toBe(oauthTab());
      await page.getByRole('link', { name: 'Create new client' }).click();
      await page.getByLabel('Client name').fill('parcel-sync');
      await page.getByLabel('phone').check();
      await screenshot(page, 'walk-04-new-client');
      await page.getByRole('button', { name: 'Create client' }).click();
      await page.getByRole('heading', { level: 1, name: 'Client created' }).waitFor();
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByText('Copied to the clipboard.').waitFor();
      await screenshot(page, 'walk-05-secret-once');
      const secret = await page.getByLabel('Client secret').inputValue();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
      clientId = (await page.locator('#client-id').textContent()) ?? '';

      const tokenRes = await fetch(`${gateway.url}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
      });
      expect(tokenRes.status).toBe(200);
      const token = String(((await tokenRes.json()) as Json)['access_token']);
      const call = await fetch(`${gateway.url}${PHONE_CALL}`, { headers: { authorization: `Bearer ${token}` } });
      expect({ status: call.status, body: await call.json() }).toMatchObject({
        status: 200,
        body: { success: true, is_verified: true },
      });

      // Never shown again: the list has the client, not its secret.
      await page.getByRole('link', { name: 'Done, back to OAuth 2.0 clients' }).click();
      await page.getByRole('cell', { name: clientId }).waitFor();
      expect(await page.content()).not.toContain(secret);
      await screenshot(page, 'walk-06-oauth-clients');
    } finally {
      await context.close();
    }
  });

  it('reaches and submits the create form with Tab and Enter alone, with a visible focus ring', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    try {
      await page.goto(portal('/login'));
      await tabTo(page, 'Email');
      await page.keyboard.type('owner@acme.example');
      await tabTo(page, 'Password');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(portal('/projects'));
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
      await context.close();
    }
  });

  it('shows a viewer of the account the clients on a phone-sized screen, with no create button', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    try {
      await acceptInvitation(
        page,
        await invite(t, acme.id, 'viewer@acme.example', 'viewer'),
        'walk-20-phone-invitation',
      );
      expect(await fitsPhone(page)).toBe(true);
      await page.goto(oauthTab());
      await page.getByRole('cell', { name: clientId }).waitFor();
      await page.getByText('lets you see clients, not create or disable them').waitFor();
      expect(await page.getByRole('link', { name: 'Create new client' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /create/i }).count()).toBe(0);
      expect(await fitsPhone(page)).toBe(true);
      await screenshot(page, 'walk-21-phone-viewer-clients');
    } finally {
      await context.close();
    }
  });
});
