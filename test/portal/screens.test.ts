import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey, keySet } from '#test/client-keys.ts';
import { screenshot } from '../console/browser.ts';
import { createAccount, invite, PASSWORD, type TestAccount } from './people-client.ts';
import {
  acceptInvitation,
  closePage,
  DESKTOP,
  PHONE,
  type PortalBrowserStack,
  runBrowser,
  startPortalBrowserStack,
} from './portal-browser.ts';

if (!runBrowser)
  console.warn('portal screens skipped: /usr/bin/chromium is missing and CI is unset (apt-get install -y chromium)');

type Json = Record<string, unknown>;

/**
 * Text whose colour on its background is below WCAG 2's AA contrast (4.5:1, or 3:1 for large
 * text), each as "text (ratio)". Hidden text and the off-screen skip link are left out.
 */
const LOW_CONTRAST = `(() => {
  const parse = (c) => { const m = /rgba?\\(([^)]+)\\)/.exec(c); if (!m) return null; const p = m[1].split(',').map(Number.parseFloat); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const background = (el) => { for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c; } return { r: 255, g: 255, b: 255, a: 1 }; };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const el = n.parentElement;
    if (!text || !el || el.closest('[hidden], .visually-hidden, .skip-link')) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.visibility === 'hidden' || box.width === 0 || box.height === 0) continue;
    const a = lum(parse(style.color)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = Number.parseFloat(style.fontSize);
    const need = size >= 24 || (Number.parseInt(style.fontWeight, 10) >= 700 && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) low.push(text.slice(0, 40) + ' (' + ratio.toFixed(2) + ')');
  }
  return low;
})()`;

/** Elements that stick out past the right edge of the viewport or of a card they sit in. */
const STICKING_OUT = `(() => {
  const out = [];
  for (const el of document.querySelectorAll('main *, header *, nav *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0) continue;
    const card = el.parentElement && el.parentElement.closest('.card, .callout, .table-wrap, .secret-panel, .facts');
    const limit = card ? card.getBoundingClientRect().right : window.innerWidth;
    if (box.right > limit + 1) out.push(el.tagName.toLowerCase() + (el.className ? '.' + el.className : '') + ': ' + (el.textContent || '').trim().slice(0, 30));
  }
  return out;
})()`;

/** Text fields and menus left at the browser's small default look (font below the page's, or squat). */
const UNSTYLED_FIELDS = `(() => {
  const base = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
  const odd = [];
  for (const el of document.querySelectorAll('input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]), select')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0) continue;
    if (Number.parseFloat(getComputedStyle(el).fontSize) < base * 0.85 || box.height < 30) odd.push(el.id || el.name);
  }
  return odd;
})()`;

/** The sizes of the page's checkboxes and radio buttons: one size, whatever their labels' length. */
const CHECK_SIZES = `[...new Set([...document.querySelectorAll('main input[type="checkbox"], main input[type="radio"]')]
  .map((el) => el.getBoundingClientRect()).filter((box) => box.width > 0).map((box) => Math.round(box.width)))]`;

/** Cards whose first visible content starts below the card's padding (a margin left over from a hidden field). */
const LOOSE_CARDS = `(() => {
  const loose = [];
  for (const card of document.querySelectorAll('main .card')) {
    const first = [...card.children].find((child) => child.getBoundingClientRect().height > 0);
    if (!first) continue;
    const style = getComputedStyle(card);
    const edge = card.getBoundingClientRect().top + Number.parseFloat(style.borderTopWidth) + Number.parseFloat(style.paddingTop);
    if (first.getBoundingClientRect().top - edge > 2) loose.push(first.textContent.trim().slice(0, 30));
  }
  return loose;
})()`;

/** How far the breadcrumb trail's left edge is from the heading's below it (0 when they line up). */
const CRUMBS_OFFSET = `(() => {
  const crumbs = document.querySelector('.breadcrumbs ol');
  const heading = document.querySelector('main h1');
  if (!crumbs || !heading) return 0;
  return Math.round(crumbs.getBoundingClientRect().left - heading.getBoundingClientRect().left);
})()`;

/** Buttons whose top touches the field, table or text just above them (less than 4 px between). */
const CRAMPED = `(() => {
  const above = [...document.querySelectorAll('main input:not([type="hidden"]), main select, main textarea, main .table-wrap, main p, main .field')];
  const cramped = [];
  for (const button of document.querySelectorAll('main button, main .button')) {
    const b = button.getBoundingClientRect();
    if (b.width === 0) continue;
    for (const el of above) {
      if (el.contains(button) || button.contains(el)) continue;
      const e = el.getBoundingClientRect();
      const overlap = Math.min(b.right, e.right) - Math.max(b.left, e.left);
      const gap = b.top - e.bottom;
      if (e.width > 0 && overlap > 0 && gap > -1 && gap < 4) cramped.push((button.textContent || '').trim() + ' under ' + el.tagName.toLowerCase());
    }
  }
  return cramped;
})()`;

/**
 * Issue 19's last browser bullet: the key pages of each role and of a free account at desktop and
 * phone widths, saved to artifacts/portal/screens-*.png to look at, and held to what can be
 * checked: each page answers, fits its width with nothing sticking out, its text has AA contrast,
 * its fields look like the rest of the page and no button touches what is above it.
 */
describe.skipIf(!runBrowser)('the account portal’s key pages at desktop and phone widths', { timeout: 180_000 }, () => {
  let stack: PortalBrowserStack;
  let acme: TestAccount;
  let hobby: TestAccount;
  const ids = { project: '', client: '', keyClient: '', apiKey: '', hobbyProject: '' };
  const links: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startPortalBrowserStack();
    const project = async (accountId: string, name: string) =>
      String(((await stack.t.admin('POST', `/accounts/${accountId}/projects`, { name })).body as Json)['id']);
    acme = await createAccount(stack.t, 'Acme Logistics', 'business');
    ids.project = await project(acme.id, 'Parcel tracking');
    for (const [name, scopes] of [
      ['parcel-sync', ['phone']],
      ['warehouse-address-cleanup-nightly', ['address', 'email', 'phone']],
    ] as const) {
      const made = await stack.t.admin('POST', `/projects/${ids.project}/clients`, { name, scopes });
      ids.client ||= String((made.body as Json)['client_id']);
    }
    const keys = keySet(await clientKey('RS256', 'parcel-2026-11'), await clientKey('ES256', 'parcel-2027-05'));
    const signer = await stack.t.admin('POST', `/projects/${ids.project}/clients`, {
      name: 'label-printer',
      scopes: ['address'],
      auth: 'private_key_jwt',
      jwks: keys,
      require_dpop: true,
    });
    ids.keyClient = String((signer.body as Json)['client_id']);
    ids.apiKey = String(((await stack.t.admin('POST', `/projects/${ids.project}/apikeys`)).body as Json)['key']);
    // A second key, disabled: the list shows both states and both actions.
    const disabled = String(((await stack.t.admin('POST', `/projects/${ids.project}/apikeys`)).body as Json)['key']);
    await stack.t.admin('POST', `/apikeys/${disabled}/disable`);
    hobby = await createAccount(stack.t, 'Hobby Works', 'free');
    ids.hobbyProject = await project(hobby.id, 'Side project');
    for (const role of ['owner', 'developer', 'viewer'] as const)
      links[role] = await invite(stack.t, acme.id, `${role}@acme.example`, role);
    links['free'] = await invite(stack.t, hobby.id, 'owner@hobby.example', 'owner');
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  function pagesOf(who: string): Array<[string, string]> {
    const p = who === 'free' ? ids.hobbyProject : ids.project;
    const pages: Array<[string, string]> = [
      ['projects', '/projects'],
      ['project', `/projects/${p}`],
      ['keys', `/projects/${p}/keys`],
      ['api-keys', `/projects/${p}/credentials`],
      ['oauth-clients', `/projects/${p}/credentials/oauth-clients`],
      ['usage', `/projects/${p}/usage`],
      ['people', '/people'],
      ['activity', '/activity'],
      ['settings', '/settings'],
      ['revoke', '/tokens/revoke'],
    ];
    if (who !== 'free') pages.push(['client-settings', `/projects/${p}/oauth-clients/${ids.keyClient}`]);
    if (who === 'owner')
      pages.push(['two-factor', '/settings/two-factor'], ['add-passkey', '/settings/two-factor/passkey']);
    if (who === 'owner' || who === 'developer')
      pages.push(
        ['new-client', `/projects/${p}/credentials/oauth-clients/new`],
        ['disable-client', `/projects/${p}/oauth-clients/${ids.client}/disable`],
        ['disable-api-key', `/projects/${p}/api-keys/${ids.apiKey}/disable`],
        ['delete-api-key', `/projects/${p}/api-keys/${ids.apiKey}/delete`],
        ['delete-client', `/projects/${p}/oauth-clients/${ids.client}/delete`],
      );
    return pages;
  }

  /** All the measures in one round trip to the page (eight took ~90 ms a page under load). */
  const MEASURES = `({
    fits: document.documentElement.scrollWidth <= window.innerWidth,
    out: ${STICKING_OUT},
    low: ${LOW_CONTRAST},
    unstyled: ${UNSTYLED_FIELDS},
    cramped: ${CRAMPED},
    crumbsOffset: ${CRUMBS_OFFSET},
    loose: ${LOOSE_CARDS},
    sizes: ${CHECK_SIZES}.length,
  })`;

  async function check(page: Page, name: string): Promise<void> {
    expect({ name, ...((await page.evaluate(MEASURES)) as Json) }).toEqual({
      name,
      fits: true,
      out: [],
      low: [],
      unstyled: [],
      cramped: [],
      crumbsOffset: 0,
      loose: [],
      sizes: expect.toBeOneOf([0, 1]),
    });
    await screenshot(page, name);
  }

  const WHO = {
    owner: 'an owner',
    developer: 'a developer',
    viewer: 'a viewer',
    free: 'the owner of a free account',
  } as const;
  for (const who of ['owner', 'developer', 'viewer', 'free'] as const) {
    for (const [width, size] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(`shows ${WHO[who]} the key pages at ${width} width, fitting and readable`, async () => {
        const page = await stack.newPage(size);
        // Every request a page makes (stylesheet, script, icon) answers; a 401 icon was once on every page.
        const failed: string[] = [];
        page.on('response', (res) => {
          if (res.status() >= 400) failed.push(`${res.status()} ${new URL(res.url()).pathname}`);
        });
        try {
          if (width === 'desktop') {
            await page.goto(links[who] ?? '');
            await check(page, `screens-${who}-desktop-invitation`);
            await acceptInvitation(stack, page, links[who] ?? '');
          } else await signInFast(page, who);
          for (const [name, path] of pagesOf(who)) {
            const res = await page.goto(stack.portal(path));
            expect({ path, status: res?.status() }).toEqual({ path, status: 200 });
            await check(page, `screens-${who}-${width}-${name}`);
          }
          if (who === 'owner') {
            await page.goto(stack.portal(`/projects/${ids.project}/credentials`));
            await page.getByRole('button', { name: 'Create API key' }).click();
            await page.getByRole('heading', { level: 1, name: 'API key created' }).waitFor();
            await check(page, `screens-${who}-${width}-api-key-created`);
          }
          expect(failed).toEqual([]);
          if (who === 'owner') {
            // A refused key set answers 400 on purpose: the form shown again with its reason.
            await page.goto(stack.portal(`/projects/${ids.project}/oauth-clients/${ids.keyClient}`));
            await page.getByLabel('New public keys (JWK set)').fill('{"keys": [');
            await page.getByRole('button', { name: 'Replace public keys' }).click();
            await page.getByRole('heading', { level: 2, name: 'There is a problem' }).waitFor();
            await check(page, `screens-${who}-${width}-client-keys-refused`);
          }
        } finally {
          await closePage(page);
        }
      });
    }
  }

  /** The phone run signs in with the password the desktop run set. */
  async function signInFast(page: Page, who: string): Promise<void> {
    const email = who === 'free' ? 'owner@hobby.example' : `${who}@acme.example`;
    await page.goto(stack.portal('/login'));
    await check(page, `screens-${who}-phone-sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(stack.portal('/projects'));
  }
});
