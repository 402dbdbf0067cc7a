import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPhoneRoute } from '#validation';
import { launchChromium, screenshot } from '../console/browser.ts';
import { createAccount, invite, member, PASSWORD, type TestAccount } from '../portal/people-client.ts';
import { DESKTOP, fitsWidth, PHONE, runBrowser } from '../portal/portal-browser.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

type Json = Record<string, unknown>;
const PHONE_CALL = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';

/**
 * The account portal's rotate and retire, in Chromium: a developer rotates a client's secret from
 * its page and an API key's from its secret page, sees the new secret once and until when the old
 * one works, and retires it; the token endpoint and the validation API follow each step. The
 * pages showing the overlap are saved at desktop and phone widths (artifacts/portal/).
 */
describe.skipIf(!runBrowser)('secret rotation in the account portal', { timeout: 120_000 }, () => {
  let t: TestUpstream;
  let browser: Browser;
  let account: TestAccount;
  let projectId: string;
  let client: { id: string; secret: string };
  let key: { key: string; secret: string };
  let page: Page;
  const portal = (path: string) => `${t.upstream.adminUrl}/portal${path}`;

  beforeAll(async () => {
    t = await startTestUpstream({ routes: [createPhoneRoute()] });
    browser = await launchChromium();
    account = await createAccount(t, 'Rotators');
    const project = (await t.admin('POST', `/accounts/${account.id}/projects`, { name: 'billing-api' })).body as Json;
    projectId = String(project['id']);
    const made = (await t.admin('POST', `/projects/${projectId}/clients`, { name: 'invoice-sync', scopes: ['phone'] }))
      .body as Json;
    client = { id: String(made['client_id']), secret: String(made['client_secret']) };
    const created = (await t.admin('POST', `/projects/${projectId}/apikeys`)).body as Json;
    key = { key: String(created['key']), secret: String(created['secret']) };
    const context = await browser.newContext(DESKTOP);
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await page.goto(await invite(t, account.id, 'dev@rotators.example', 'developer'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(portal('/projects'));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.destroy();
  });

  const tokenStatus = async (secret: string) => {
    const res = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: secret }),
    });
    await res.body?.cancel();
    return res.status;
  };
  const keyCall = async (secret: string) => {
    const res = await fetch(`${t.upstream.url}${PHONE_CALL}&key=${encodeURIComponent(key.key)}`, {
      headers: { authorization: secret },
    });
    return { status: res.status, code: ((await res.json()) as Json)['error_code'] };
  };
  /** The page at desktop and at phone width, which must not scroll sideways. */
  const bothWidths = async (name: string) => {
    await page.setViewportSize(DESKTOP.viewport);
    await screenshot(page, `${name}-desktop`);
    await page.setViewportSize(PHONE.viewport);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, `${name}-phone`);
    await page.setViewportSize(DESKTOP.viewport);
  };

  it('rotates a client’s secret with an overlap, shows it once and the overlap, and retires the old one', async () => {
    await page.goto(portal(`/projects/${projectId}/oauth-clients/${client.id}`));
    await expect.poll(() => page.locator('#secret-state').textContent()).toContain('One secret works');
    await page.getByLabel('Keep the previous secret working for').selectOption('1h');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { level: 1, name: 'New secret for invoice-sync' }).waitFor();
    const fresh = await page.getByLabel('New secret').inputValue();
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.locator('#previous-note').textContent()).toMatch(
      /keeps working until \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    await screenshot(page, 'secret-rotation-client-new-secret');
    expect([await tokenStatus(client.secret), await tokenStatus(fresh)]).toEqual([200, 200]);

    await page.getByRole('link', { name: 'Done, back to the client' }).click();
    await page.getByRole('heading', { level: 1, name: /invoice-sync/ }).waitFor();
    expect(await page.content()).not.toContain(fresh);
    expect(await page.locator('#secret-state').textContent()).toMatch(/previous secret still works until \d{4}-/);
    await bothWidths('secret-rotation-client-overlap');
    await page.goto(portal(`/projects/${projectId}/credentials/oauth-clients`));
    expect(await page.getByRole('cell', { name: /previous secret works until/ }).count()).toBe(1);
    await bothWidths('secret-rotation-client-list');

    await page.goto(portal(`/projects/${projectId}/oauth-clients/${client.id}`));
    await page.getByRole('button', { name: 'Retire the previous secret now' }).click();
    await page.getByText('no longer works: only the current one does').waitFor();
    expect(await page.locator('#secret-state').textContent()).toContain('One secret works');
    expect([await tokenStatus(client.secret), await tokenStatus(fresh)]).toEqual([401, 200]);

    const activity = (await t.admin('GET', `/accounts/${account.id}/activity`)).body as Json[];
    expect(activity.filter((e) => e['target'] === client.id).slice(0, 2)).toMatchObject([
      { action: 'client.secret_retire', actor: 'dev@rotators.example' },
      { action: 'client.secret_rotate', actor: 'dev@rotators.example' },
    ]);
  });

  it('rotates an API key’s secret from its secret page, and retires the old one', async () => {
    await page.goto(portal(`/projects/${projectId}/credentials`));
    await page.getByRole('link', { name: `Secret of ${key.key}` }).click();
    await page.getByRole('heading', { level: 1, name: /Secret of API key/ }).waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { level: 1, name: 'New secret for the API key' }).waitFor();
    const fresh = await page.getByLabel('New secret').inputValue();
    expect([await keyCall(key.secret), await keyCall(fresh)]).toEqual([
      { status: 200, code: undefined },
      { status: 200, code: undefined },
    ]);
    await page.getByRole('link', { name: 'Done, back to the key’s secret' }).click();
    expect(await page.locator('#secret-state').textContent()).toMatch(/previous secret still works until \d{4}-/);
    await bothWidths('secret-rotation-api-key-overlap');
    await page.goto(portal(`/projects/${projectId}/credentials`));
    await page.getByText(/Works until \d{4}-/).waitFor();

    await page.getByRole('link', { name: `Secret of ${key.key}` }).click();
    await page.getByRole('button', { name: 'Retire the previous secret now' }).click();
    await page.getByText('no longer works: only the current one does').waitFor();
    expect([await keyCall(key.secret), await keyCall(fresh)]).toEqual([
      { status: 401, code: '1006' },
      { status: 200, code: undefined },
    ]);
  });

  it('shows a viewer the state without the forms, and refuses their rotate with 403', async () => {
    const viewer = await member(t, account, 'viewer@rotators.example', 'viewer');
    const settings = await viewer.get(`/portal/projects/${projectId}/oauth-clients/${client.id}`);
    expect(settings.status).toBe(200);
    expect(settings.text).toContain('One secret works');
    expect(settings.text).not.toContain('Rotate secret');
    const refused = await viewer.post(`/portal/projects/${projectId}/oauth-clients/${client.id}/secret/rotate`, {
      overlap: '24h',
    });
    expect(refused.status).toBe(403);
    expect(await tokenStatus(client.secret)).toBe(401);
  });
});
