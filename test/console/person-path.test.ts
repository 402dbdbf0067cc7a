import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { chromiumPresent, focusedText, launchChromium, screenshot, tabTo } from './browser.ts';

const runBrowser = chromiumPresent || Boolean(process.env['CI']);
if (!runBrowser)
  console.warn(
    'portal browser tests skipped: /usr/bin/chromium is missing and CI is unset (apt-get install -y chromium)',
  );

type Json = Record<string, unknown>;

describe.skipIf(!runBrowser)('portal in a real browser (Debian Chromium)', { timeout: 90_000 }, () => {
  let t: TestUpstream;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    t = await startTestUpstream();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.upstream.adminUrl });
    page = await context.newPage();
    context.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.destroy();
  });

  const portal = (path: string) => `${t.upstream.adminUrl}${path}`;
  const callPhoneApi = (token: string) =>
    fetch(`${t.upstream.url}/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU`, {
      headers: { authorization: `Bearer ${token}` },
    });

  it('lets a person sign in, create a business project and a client, copy the secret, get a token, then disable the client and see the token refused with 1024', async () => {
    await page.goto(portal('/console/projects'));
    await expect.poll(() => page.url()).toBe(portal('/console/login'));
    await screenshot(page, '01-sign-in');
    await page.getByLabel('Admin token').fill(t.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();

    await page.getByLabel('Project name').fill('Acme Logistics');
    await page.getByLabel('Plan').selectOption('business');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Logistics' }).waitFor();
    await screenshot(page, '03-project');
    await page.getByRole('link', { name: 'Projects', exact: true }).first().click();
    await screenshot(page, '02-projects');
    await page.getByRole('link', { name: 'Acme Logistics' }).click();

    // The spec's steps: Keys → Credentials → OAuth 2.0 clients tab → Create new client.
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    await screenshot(page, '04-keys');
    await page.getByRole('link', { name: 'Credentials', exact: true }).click();
    await screenshot(page, '05-credentials-api-keys');
    await page.getByRole('link', { name: 'OAuth 2.0 clients' }).click();
    await expect
      .poll(() => page.getByRole('link', { name: 'OAuth 2.0 clients' }).getAttribute('aria-current'))
      .toBe('page');
    await page.getByRole('link', { name: 'Create new client' }).click();
    await page.getByLabel('Client name').fill('nightly-import');
    await page.getByLabel('phone').check();
    await page.getByLabel('email').check();
    await screenshot(page, '06-new-client');
    await page.getByRole('button', { name: 'Create client' }).click();
    await page.getByRole('heading', { level: 1, name: 'Client created' }).waitFor();
    expect(await page.getByText('cannot be shown again').count()).toBe(1);

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    await screenshot(page, '07-client-secret-once');
    const secret = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(secret).toBe(await page.getByLabel('Client secret').inputValue());
    const clientId = (await page.locator('#client-id').textContent()) ?? '';

    const tokenRes = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
    });
    const tokenBody = (await tokenRes.json()) as Json;
    expect(tokenRes.status).toBe(200);
    expect(tokenBody).toMatchObject({ token_type: 'Bearer', scope: 'phone email' });
    const token = String(tokenBody['access_token']);
    expect((await callPhoneApi(token)).status).toBe(200);

    await page.getByRole('link', { name: 'Done, back to OAuth 2.0 clients' }).click();
    await page.getByRole('cell', { name: clientId }).waitFor();
    await screenshot(page, '08-oauth-clients');
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('link', { name: 'Disable nightly-import' }).click();
    await page.getByText('Disabling revokes every outstanding access token of this client.').waitFor();
    await screenshot(page, '09-disable-confirm');
    await page.getByRole('button', { name: 'Disable client and revoke its tokens' }).click();
    await page.getByRole('status').getByText('disabled; its outstanding tokens are revoked').waitFor();
    await screenshot(page, '10-client-disabled');

    const refused = await callPhoneApi(token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({
      error_code: '1024',
      message: 'OAuth key has been revoked',
      success: false,
    });
    const again = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
    });
    expect(await again.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('shows the signing keys with their states, rotates them, and revokes a token by id', async () => {
    await page.getByRole('link', { name: 'Signing keys' }).first().click();
    await page.getByRole('table', { name: 'Current signing keys and their states' }).waitFor();
    await page.getByRole('button', { name: 'Rotate signing keys' }).click();
    await page.getByRole('status').getByText('Signing keys rotated.').waitFor();
    await screenshot(page, '11-signing-keys');
    await page.getByRole('link', { name: 'Revoke a token' }).click();
    await page.getByLabel('Access token (JWT) or token id (jti)').fill('0f6b1c7e-2d0a-4c1e-9a55-3e1f2b7c9d10');
    await page.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByRole('status').getByText('Token revoked.').waitFor();
    await screenshot(page, '12-revoke-token');
  });

  it('can be used with the keyboard alone: skip link, sign-in, and the way to a new client, with a visible focus ring', async () => {
    const keyboard = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const kb = await keyboard.newPage();
    try {
      await kb.goto(portal('/console/login'));
      await kb.keyboard.press('Tab');
      expect(await focusedText(kb)).toBe('Skip to main content');
      await kb.keyboard.press('Enter');
      await tabTo(kb, 'Admin token');
      await kb.keyboard.type(t.adminToken);
      await kb.keyboard.press('Enter');
      await kb.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
      for (const step of ['Acme Logistics', 'Keys', 'Credentials', 'OAuth 2.0 clients', 'Create new client']) {
        await tabTo(kb, step);
        const before = kb.url();
        await kb.keyboard.press('Enter');
        await kb.waitForURL((url) => url.href !== before);
      }
      await tabTo(kb, 'Client name');
      await kb.keyboard.type('keyboard-client');
      await tabTo(kb, 'address');
      await kb.keyboard.press('Space');
      await tabTo(kb, 'Create client');
      await screenshot(kb, '13-keyboard-focus');
      await kb.keyboard.press('Enter');
      await kb.getByRole('heading', { level: 1, name: 'Client created' }).waitFor();
    } finally {
      await keyboard.close();
    }
  });

  // 390 CSS pixels: a phone's width. A wider document would make the whole page scroll sideways.
  it('fits a phone-sized screen without sideways scrolling', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    await phone.addCookies(await context.cookies());
    const mobile = await phone.newPage();
    try {
      for (const [path, name] of [
        ['/console/projects', '20-phone-projects'],
        ['/console/signing-keys', '21-phone-signing-keys'],
      ] as const) {
        await mobile.goto(portal(path));
        await screenshot(mobile, name);
        expect(await mobile.evaluate('document.documentElement.scrollWidth <= 390'), path).toBe(true);
      }
      await mobile.getByRole('link', { name: 'Projects', exact: true }).first().click();
      await mobile.getByRole('link', { name: 'Acme Logistics' }).click();
      await mobile.getByRole('link', { name: 'Keys', exact: true }).click();
      await mobile.getByRole('link', { name: 'Credentials', exact: true }).click();
      await mobile.getByRole('link', { name: 'OAuth 2.0 clients' }).click();
      await screenshot(mobile, '22-phone-oauth-clients');
      expect(await mobile.evaluate('document.documentElement.scrollWidth <= 390')).toBe(true);
    } finally {
      await phone.close();
    }
  });
});
