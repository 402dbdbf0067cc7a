import { expect } from 'vitest';
import type { PeopleClient } from './people-client.ts';
import { shownRecoveryCodes } from './two-factor-flow.ts';
import { pageOptions, SoftAuthenticator } from './soft-authenticator.ts';

export const PASSKEY_SETUP = '/portal/settings/two-factor/passkey';
export const PASSKEY_SIGN_IN = '/portal/login/passkey';
export const SECOND_STEP = '/portal/login/second-factor';

/** The origin passkeys of a portal at `http://127.0.0.1:PORT` belong to: the same port at localhost. */
export function passkeyOrigin(c: PeopleClient): string {
  return c.base.replace('127.0.0.1', 'localhost');
}

/** Adds a passkey of a new software authenticator from the signed-in person's setup page. */
export async function enrolPasskey(c: PeopleClient, label = 'Laptop', origin = passkeyOrigin(c)) {
  const setup = await c.get(PASSKEY_SETUP);
  expect(setup.status).toBe(200);
  const key = new SoftAuthenticator();
  const credential = key.create(pageOptions(setup.text, 'create'), origin);
  const done = await c.post(PASSKEY_SETUP, { credential, label });
  // The first factor comes with the recovery codes (201); a later one goes back to the list.
  expect([201, 303]).toContain(done.status);
  return { key, recoveryCodes: shownRecoveryCodes(done.text) };
}
