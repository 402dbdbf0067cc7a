import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { chromiumPresent, launchChromium, screenshot } from './browser.ts';

const runBrowser = chromiumPresent || Boolean(process.env['CI']);

/** A month of calls, the way the gateways report them: a weekly rhythm, quieter at weekends. */
function reports(projectId: string, month: string, untilDay: number) {
  return Array.from({ length: untilDay }, (_, i) => {
    const date = new Date(`${month}-${String(i + 1).padStart(2, '0')}T00:00:00Z`);
    const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
    const calls = Math.round((weekend ? 40 : 160) + 60 * Math.sin(i / 2) + i * 3);
    return { project_id: projectId, day: date.toISOString().slice(0, 10), calls, quota: 5_000 };
  });
}

describe.skipIf(!runBrowser)('the usage page in a real browser (Debian Chromium)', { timeout: 90_000 }, () => {
  let t: TestUpstream;
  let browser: Browser;
  let page: Page;
  let projectId: string;
  const today = new Date().toISOString().slice(0, 10);
  const month = today.slice(0, 7);
  const day = Number(today.slice(8, 10));
  let expectedCalls = 0;

  beforeAll(async () => {
    t = await startTestUpstream({ routes: [] });
    projectId = (
      (await t.admin('POST', '/projects', { name: 'Acme Logistics', plan: 'business' })).body as { id: string }
    ).id;
    const usage = reports(projectId, month, day);
    expectedCalls = usage.reduce((s, r) => s + r.calls, 0);
    const res = await fetch(`${t.upstream.url}/internal/usage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.upstream.feedToken.value}`, 'content-type': 'application/json' },
      body: JSON.stringify({ usage }),
    });
    expect(res.status).toBe(204);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.destroy();
  });

  const portal = (path: string) => `${t.upstream.adminUrl}${path}`;

  it("shows this month's calls per day as a chart, with the quota used", async () => {
    await page.goto(portal('/console/login'));
    await page.getByLabel('Admin token').fill(t.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByRole('link', { name: 'Acme Logistics' }).click();
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();

    const chart = page.getByRole('img', { name: /^Calls per day in / });
    expect(await chart.count()).toBe(1);
    expect(await page.locator('svg.usage-chart rect.bar').count()).toBe(day);
    const box = await chart.boundingBox();
    expect(box?.width).toBeGreaterThan(600);
    const shown = expectedCalls.toLocaleString('en-US');
    expect(await page.locator('.quota').textContent()).toContain(`${shown} of 5,000 calls this month`);
    expect(Number(await page.locator('meter').getAttribute('value'))).toBe(Math.min(expectedCalls, 5_000));
    // Every bar says its day and count to a pointer and a screen reader.
    expect(await page.locator('svg.usage-chart rect.bar title').first().textContent()).toMatch(
      new RegExp(`^${month}-01: [\\d,]+ calls$`),
    );
    await screenshot(page, '20-usage');

    await page.getByText('Calls per day as a table').click();
    expect(await page.locator('details tbody tr').count()).toBe(day);
  });

  it('goes back a month, where nothing was counted, and shows a whole empty month', async () => {
    await page.getByRole('link', { name: /^← / }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    const previous = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 2, 1));
    const days = new Date(Date.UTC(previous.getUTCFullYear(), previous.getUTCMonth() + 1, 0)).getUTCDate();
    expect(await page.locator('svg.usage-chart rect.bar').count()).toBe(days);
    expect(await page.locator('.facts').textContent()).toContain('Calls0');
    // Calls are whole numbers: an empty month's axis runs 0 to 1, not to 0.5.
    expect(await page.locator('svg.usage-chart text.axis[text-anchor="end"]').allTextContents()).toEqual(['0', '1']);
    // A month given by hand that is not one falls back to this month.
    await page.goto(portal(`/console/projects/${projectId}/usage?month=2026-13`));
    expect(await page.locator('svg.usage-chart rect.bar').count()).toBe(day);
  });

  it('lets the operator set, refuse and clear a rate-limit override from the project page', async () => {
    await page.goto(portal(`/console/projects/${projectId}`));
    await page.getByRole('link', { name: 'Rate limits', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Rate limits' }).waitFor();
    await page.getByLabel('Override (JSON)').fill('{"monthlyQuota": 0}');
    await page.getByRole('button', { name: 'Save override' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('monthlyQuota: a whole number from 1');
    await page.getByLabel('Override (JSON)').fill('{"monthlyQuota": 250000}');
    await page.getByRole('button', { name: 'Save override' }).click();
    await page.getByText('Override saved').waitFor();
    await screenshot(page, '21-rate-limits');
    expect((await t.admin('GET', `/projects/${projectId}/limits`)).body).toMatchObject({
      override: { monthlyQuota: 250_000 },
    });
    await page.getByRole('button', { name: 'Clear override' }).click();
    await page.getByText('Override cleared').waitFor();
    expect((await t.admin('GET', `/projects/${projectId}/limits`)).body).toMatchObject({ override: null });
  });
});
