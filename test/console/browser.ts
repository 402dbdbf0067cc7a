import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Debian's Chromium, driven by playwright-core (playwright's own browser download cannot work
 * here). Its old headless shell (package chromium-headless-shell, which .ci/run installs) is
 * what playwright itself runs headless: it started in 1.0-1.3 s where the full browser took
 * 2.6-3.0 s, opened a context in 3.5 s instead of 5.3-5.9 and loaded portal pages some 20 %
 * faster here. The full browser still serves where the shell is not installed.
 */
const SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = existsSync(SHELL) ? SHELL : '/usr/bin/chromium';
export const chromiumPresent = existsSync(CHROMIUM);
export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'artifacts', 'portal');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** In CI a missing Chromium is an error (CI installs it), never a silent skip. */
export async function launchChromium(): Promise<Browser> {
  if (!chromiumPresent)
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install it with apt-get install -y chromium-headless-shell (.ci/run does)`,
    );
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * Saves the whole page to artifacts/portal/NAME.png for a person to look at, in CSS pixels with
 * Chromium's fast PNG encoder. Playwright's full-page PNG at a phone's device scale took 0.8 s a
 * shot here and this 0.15 s; the browser tests write some 200 of them.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const session = sessions.get(page) ?? page.context().newCDPSession(page);
  sessions.set(page, session);
  const cdp = await session;
  const capture = async () => {
    const { cssContentSize: size } = await cdp.send('Page.getLayoutMetrics');
    return cdp.send('Page.captureScreenshot', {
      format: 'png',
      optimizeForSpeed: true,
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: size.width, height: size.height, scale: 1 },
    });
  };
  // A loaded machine's Chromium now and then answers "Unable to capture screenshot" for a page
  // it has drawn: the shot is the test's artifact, not what it checks, so it is taken again once.
  const { data } = await capture().catch(async () => {
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(null)))');
    return capture();
  });
  await writeFile(join(ARTIFACTS, `${name}.png`), Buffer.from(data, 'base64'));
}

/** The focused element's accessible text (its label for a field). */
export async function focusedText(page: Page): Promise<string> {
  return String(
    await page.evaluate(`(() => {
      const el = document.activeElement;
      if (!el) return '';
      const label = el.id ? document.querySelector('label[for="' + el.id + '"]') : null;
      return (label ? label.textContent : el.textContent || el.getAttribute('aria-label') || '').trim();
    })()`),
  );
}

/** Presses Tab until the focused element's text is `text` (as a keyboard user would), at most 60 times. */
export async function tabTo(page: Page, text: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if ((await focusedText(page)) === text) {
      expect(
        await page.evaluate('getComputedStyle(document.activeElement).outlineStyle'),
        `focus ring on "${text}"`,
      ).not.toBe('none');
      return;
    }
  }
  throw new Error(`keyboard: "${text}" was never reached with Tab`);
}
