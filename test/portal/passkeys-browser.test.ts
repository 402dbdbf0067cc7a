import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, invite, PASSWORD, type TestAccount } from './people-client.ts';
import { DESKTOP, runBrowser, shotsAtBothWidths, startPortalOnly } from './portal-browser.ts';

if (!runBrowser) console.warn('portal passkey browser tests skipped: /usr/bin/chromium is missing and CI is unset');

/**
 * Issue 30's passkeys in Chromium, with its virtual authenticator (the DevTools WebAuthn domain):
 * a person adds a passkey, signs in with password and passkey, then with the passkey alone; a
 * member of an account that requires 2FA enrols a passkey instead of an app and keeps it as their
 * last factor. The portal is opened at localhost: browsers refuse an IP address as a passkey's
 * site, and the portal's passkeys belong to localhost when it listens on 127.0.0.1.
 */
describe.skipIf(!runBrowser)('passkeys in Chromium', { timeout: 180_000 }, () => {
  let t: TestUpstream;
  let browser: Browser;
  let close: () => Promise<void>;
  let account: TestAccount;
  const origin = () => t.upstream.adminUrl.replace('127.0.0.1', 'localhost');
  const portal = (path: string) => `${origin()}/portal${path}`;
  beforeAll(async () => {
    ({ t, browser, close } = await startPortalOnly());
    account = await createAccount(t, 'Acme Logistics');
  }, 120_000);
  afterAll(() => close?.());

  /** A page with a platform authenticator that keeps discoverable credentials and verifies the person. */
  async function pageWithAuthenticator(): Promise<Page> {
    const context = await browser.newContext(DESKTOP);
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    return page;
  }

  const shots = (page: Page, name: string) => shotsAtBothWidths(page, `passkey-${name}`);

  async function join(page: Page, email: string, role: string): Promise<void> {
    const link = new URL(await invite(t, account.id, email, role));
    await page.goto(portal(`/invitation${link.search}`));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
  }

  async function addPasskey(page: Page, name: string): Promise<void> {
    await page.getByLabel('Name of this passkey').fill(name);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
  }

  it('adds a passkey, then signs in with password and passkey, and with the passkey alone', async () => {
    const page = await pageWithAuthenticator();
    await join(page, 'keys@acme.example', 'developer');
    await page.waitForURL(portal('/projects'));
    await page.goto(portal('/settings/two-factor'));
    await page.getByRole('link', { name: 'Add a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add a passkey' }).waitFor();
    await shots(page, 'setup');
    await addPasskey(page, 'This laptop');
    await page.getByRole('heading', { name: 'Two-factor authentication is on' }).waitFor();
    expect(await page.locator('.recovery-codes code').count()).toBe(10);
    await page.getByRole('link', { name: 'I have saved them' }).click();
    await page.getByRole('rowheader', { name: 'This laptop' }).waitFor();
    expect(await page.getByRole('cell', { name: 'Passkey', exact: true }).count()).toBe(1);
    await shots(page, 'factors');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill('keys@acme.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(portal('/login/second-factor'));
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await shots(page, 'second-step');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(portal('/projects'));

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(portal('/login'));
    await shots(page, 'sign-in');
    await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in with a passkey' }).waitFor();
    await shots(page, 'sign-in-passkey');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(portal('/projects'));

    // Not required here: the only factor may go, and with it the passkey's sign-in.
    await page.goto(portal('/settings/two-factor'));
    await page.getByRole('button', { name: 'Remove This laptop' }).click();
    await page.getByText('Factor removed.').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('That passkey did not sign you in.').waitFor();
    await page.context().close();
  });

  it('lets a member of an account requiring 2FA enrol a passkey instead of an app, and keeps it', async () => {
    const strict = await createAccount(t, 'Strict Freight');
    expect((await t.admin('POST', `/accounts/${strict.id}/require-2fa`, { require_2fa: true })).status).toBe(200);
    account = strict;
    const page = await pageWithAuthenticator();
    await join(page, 'member@strict.example', 'developer');
    await page.waitForURL(portal('/settings/two-factor/totp'));
    await page.getByRole('link', { name: 'add a passkey instead' }).click();
    await page.getByRole('heading', { name: 'Your account requires two-factor authentication' }).waitFor();
    await shots(page, 'setup-required');
    await addPasskey(page, 'Work laptop');
    await page.getByRole('link', { name: 'I have saved them' }).click();
    await page.getByRole('rowheader', { name: 'Work laptop' }).waitFor();
    expect(await page.getByText('Your only factor').count()).toBe(1);
    await page.goto(portal('/projects'));
    expect(page.url()).toBe(portal('/projects'));

    // The same authenticator cannot hold a second passkey of theirs (it is excluded): the page says so.
    await page.goto(portal('/settings/two-factor/passkey'));
    await addPasskey(page, 'Again');
    await page.getByText('This passkey is added already.').waitFor();
    await shots(page, 'setup-excluded');
    await page.context().close();
  });
});
