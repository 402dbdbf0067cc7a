import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { chromiumPresent, launchChromium } from './browser.ts';

const runBrowser = chromiumPresent || Boolean(process.env['CI']);

describe.skipIf(!runBrowser)('a credential form in a real browser (Debian Chromium)', { timeout: 90_000 }, () => {
  let t: TestUpstream;
  let browser: Browser;
  let page: Page;
  let projectId: string;
  beforeAll(async () => {
    t = await startTestUpstream();
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    page.context().setDefaultTimeout(10_000);
    projectId = String(
      ((await t.admin('POST', '/projects', { name: 'Acme', plan: 'business' })).body as { id: string }).id,
    );
    await page.goto(`${t.upstream.adminUrl}/console/login`);
    await page.getByLabel('Admin token').fill(t.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.destroy();
  });

  const clientNames = async () =>
    ((await t.admin('GET', `/projects/${projectId}/clients`)).body as Array<{ name: string }>).map((c) => c.name);

  async function openNewClientForm(name: string): Promise<void> {
    await page.goto(`${t.upstream.adminUrl}/console/projects/${projectId}/credentials/oauth-clients/new`);
    await page.getByLabel('Client name').fill(name);
    await page.getByLabel('phone').check();
  }

  it('does not create a second client when the page that showed the secret is reloaded', async () => {
    // Regression: a reload sent the form again, creating another enabled client whose secret nobody kept.
    await openNewClientForm('reloaded');
    await page.getByRole('button', { name: 'Create client' }).click();
    await page.getByRole('heading', { level: 1, name: 'Client created' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'OAuth 2.0 clients' }).waitFor();
    expect(await clientNames()).toEqual(['reloaded']);
  });

  it('does not create a second API key when the page that showed its secret is reloaded', async () => {
    await page.goto(`${t.upstream.adminUrl}/console/projects/${projectId}/credentials`);
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('heading', { level: 1, name: 'API key created' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'API keys' }).waitFor();
    expect(await page.locator('table tbody tr').count()).toBe(1);
  });
});
