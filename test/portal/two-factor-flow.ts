import { TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { PeopleClient } from './people-client.ts';

const STEP_MS = 30_000;

/** The code an authenticator app shows `steps` steps from now, computed with an independent library (otpauth). */
export function appCode(secret: string, steps = 0): string {
  return new TOTP({ secret, digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * STEP_MS });
}

/** The key the setup page shows, without its spaces. */
export function shownSecret(page: string): string {
  return (/id="totp-secret"[^>]*>([A-Z2-7 ]+)</.exec(page)?.[1] ?? '').replaceAll(' ', '');
}

export function shownRecoveryCodes(page: string): string[] {
  return [...page.matchAll(/<li><code>([a-z2-7-]{19})<\/code><\/li>/g)].map((m) => m[1] ?? '');
}

/**
 * Sets an authenticator app up from the signed-in person's setup page, typing the current code:
 * that step is used up, so the next sign-in types the next one (`appCode(secret, 1)`).
 */
export async function enrolTotp(
  c: PeopleClient,
): Promise<{ secret: string; setupCode: string; recoveryCodes: string[] }> {
  const setup = await c.get('/portal/settings/two-factor/totp');
  expect(setup.status).toBe(200);
  const secret = shownSecret(setup.text);
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const setupCode = appCode(secret);
  const done = await c.post('/portal/settings/two-factor/totp', { code: setupCode, label: 'Phone' });
  // The first factor comes with the recovery codes (201); a later one goes back to the list.
  expect([201, 303]).toContain(done.status);
  return { secret, setupCode, recoveryCodes: shownRecoveryCodes(done.text) };
}
