import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createLogger } from '#common';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { chromiumPresent, launchChromium, screenshot } from '../console/browser.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { PASSWORD } from './people-client.ts';

/** Browser tests run where Chromium is; in CI its absence is an error (launchChromium says so). */
export const runBrowser = chromiumPresent || Boolean(process.env['CI']);

const PUBLIC_URL = 'http://tokengate.test';
const PHONE_CALL = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
type Json = Record<string, unknown>;

export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** One file's stack: an upstream, a gateway in front of it, and one Chromium, shared by its tests. */
export interface PortalBrowserStack {
  readonly t: TestUpstream;
  readonly gateway: RunningGateway;
  readonly browser: Browser;
  /** The absolute URL of a portal path (`/projects` → `http://…/portal/projects`). */
  portal(path: string): string;
  /** A page in a fresh context (its own cookies) at the size given, clipboard allowed. */
  newPage(size?: typeof DESKTOP | typeof PHONE): Promise<Page>;
  close(): Promise<void>;
}

export async function startPortalBrowserStack(): Promise<PortalBrowserStack> {
  const t = await startTestUpstream({ env: { PUBLIC_URL } });
  const env = {
    GATEWAY_PORT: '0',
    METRICS_PORT: '0',
    UPSTREAM_URL: t.upstream.url,
    PUBLIC_URL,
    REVOCATION_FEED_TOKEN: t.upstream.feedToken.value,
  };
  const gateway = await startGateway(
    loadGatewayConfig(join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml'), env),
    { log: createLogger({ level: 'silent' }) },
  );
  await gateway.ready();
  const browser = await launchChromium();
  const portal = (path: string) => `${t.upstream.adminUrl}/portal${path}`;
  return {
    t,
    gateway,
    browser,
    portal,
    async newPage(size = DESKTOP) {
      const context = await browser.newContext(size);
      context.setDefaultTimeout(10_000);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.upstream.adminUrl });
      return context.newPage();
    },
    async close() {
      await browser.close();
      await gateway.close();
      await t.destroy();
    },
  };
}

/** Closes the page's context (its cookies and storage with it). */
export function closePage(page: Page): Promise<void> {
  return page.context().close();
}

/** Whether nothing is wider than the viewport (no sideways scrolling). */
export async function fitsWidth(page: Page): Promise<boolean> {
  return Boolean(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'));
}

/** Opens the invitation link, sets the password, and lands signed in on the projects. */
export async function acceptInvitation(
  stack: PortalBrowserStack,
  page: Page,
  url: string,
  shot?: string,
): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: 'Join your team on tokengate' }).waitFor();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  if (shot) await screenshot(page, shot);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.waitForURL(stack.portal('/projects'));
}

/** Signs in with the sign-in form's labelled fields. */
export async function signIn(stack: PortalBrowserStack, page: Page, email: string, shot?: string): Promise<void> {
  await page.goto(stack.portal('/login'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  if (shot) await screenshot(page, shot);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(stack.portal('/projects'));
}

export interface CreatedClient {
  readonly clientId: string;
  readonly secret: string;
}

/**
 * The spec's path from the projects list: project → Keys → Credentials → OAuth 2.0 clients →
 * Create new client → name → a scope → the secret shown once, copied with the copy button.
 * `shots` prefixes the screenshots of the form and of the secret.
 */
export async function createClientAlongSpecPath(
  stack: PortalBrowserStack,
  page: Page,
  how: { project: string; projectId: string; name: string; scope: string; shots: string },
): Promise<CreatedClient> {
  await page.getByRole('link', { name: how.project }).click();
  await page.getByRole('heading', { level: 1, name: how.project }).waitFor();
  await page.getByRole('link', { name: 'Keys', exact: true }).click();
  await page.getByRole('link', { name: 'Credentials', exact: true }).click();
  await page.getByRole('link', { name: 'OAuth 2.0 clients' }).click();
  await expect.poll(() => page.url()).toBe(stack.portal(`/projects/${how.projectId}/credentials/oauth-clients`));
  await page.getByRole('link', { name: 'Create new client' }).click();
  await page.getByLabel('Client name').fill(how.name);
  await page.getByLabel(how.scope).check();
  await screenshot(page, `${how.shots}-new-client`);
  await page.getByRole('button', { name: 'Create client' }).click();
  await page.getByRole('heading', { level: 1, name: 'Client created' }).waitFor();
  expect(await page.locator('.breadcrumbs [aria-current="page"]').textContent()).toBe('Client created');
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  await screenshot(page, `${how.shots}-secret-once`);
  const secret = await page.getByLabel('Client secret').inputValue();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
  const clientId = (await page.locator('#client-id').textContent()) ?? '';
  return { clientId, secret };
}

/** A token for the client, then a phone verification through the gateway with it: both must pass. */
export async function callThroughGateway(stack: PortalBrowserStack, client: CreatedClient): Promise<void> {
  const tokenRes = await fetch(`${stack.gateway.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.secret,
    }),
  });
  expect(tokenRes.status).toBe(200);
  const token = String(((await tokenRes.json()) as Json)['access_token']);
  const call = await fetch(`${stack.gateway.url}${PHONE_CALL}`, { headers: { authorization: `Bearer ${token}` } });
  expect({ status: call.status, body: await call.json() }).toMatchObject({
    status: 200,
    body: { success: true, is_verified: true },
  });
}

/** After "Done", the list has the client and not its secret. */
export async function secretNeverShownAgain(page: Page, client: CreatedClient): Promise<void> {
  await page.getByRole('link', { name: 'Done, back to OAuth 2.0 clients' }).click();
  await page.getByRole('cell', { name: client.clientId }).waitFor();
  expect(await page.content()).not.toContain(client.secret);
}

/** A portal-only stack (an upstream with no validation routes) and one Chromium, shared by a file's tests. */
export async function startPortalOnly(): Promise<{ t: TestUpstream; browser: Browser; close(): Promise<void> }> {
  const t = await startTestUpstream({ routes: [] });
  const browser = await launchChromium();
  return {
    t,
    browser,
    async close() {
      await browser.close();
      await t.destroy();
    },
  };
}

/** The page at desktop width, then at phone width (where nothing may be wider than the screen). */
export async function shotsAtBothWidths(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE.viewport);
  expect(await fitsWidth(page), name).toBe(true);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP.viewport);
}
