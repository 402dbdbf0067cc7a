import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSKEY_CHALLENGES_PER_ADDRESS, SIGN_IN_LIMITS } from '../../src/portal/auth/sign-in-limits.ts';
import { adminCommands } from '../cli/cli-runner.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { enrolPasskey, PASSKEY_SETUP, PASSKEY_SIGN_IN, passkeyOrigin, SECOND_STEP } from './passkey-flow.ts';
import { createAccount, member, PASSWORD, PeopleClient, type TestAccount } from './people-client.ts';
import { pageOptions, SoftAuthenticator } from './soft-authenticator.ts';

const FIVE_MINUTES = 5 * 60 * 1000;

describe('passkeys in the account portal, over HTTP', () => {
  let t: TestUpstream;
  let acme: TestAccount;
  let env: Record<string, string>;
  let skew = 0;
  beforeAll(async () => {
    t = await startTestUpstream({ routes: [], clock: { now: () => Date.now() + skew } });
    acme = await createAccount(t, 'Acme');
    env = { ADMIN_URL: t.upstream.adminUrl, DATA_DIR: t.dataDir };
  });
  afterAll(async () => {
    await t?.destroy();
  });
  const { json } = adminCommands(() => env);
  const browser = () => new PeopleClient(t.upstream.adminUrl);
  const activity = async (accountId: string) =>
    ((await json(['account', 'activity', accountId])) as Array<{ action: string; target: string }>).map(
      (e) => e.action,
    );

  /** The password step; the second step's page (with its passkey challenge) is the last page shown. */
  async function passwordStep(email: string): Promise<PeopleClient> {
    const c = browser();
    expect((await c.signInAs(email, PASSWORD)).headers.get('location')).toBe(SECOND_STEP);
    expect((await c.get(SECOND_STEP)).status).toBe(200);
    return c;
  }

  /** Posts the passkey's answer to the second step's challenge (the last page shown). */
  function usePasskey(c: PeopleClient, key: SoftAuthenticator, origin = passkeyOrigin(c)) {
    return c.post(`${SECOND_STEP}/passkey`, { credential: key.get(pageOptions(c.lastPage, 'get'), origin) });
  }

  /** Opens the passkey sign-in page and answers its challenge. */
  async function passkeySignIn(c: PeopleClient, key: SoftAuthenticator, origin = passkeyOrigin(c)) {
    await c.get(PASSKEY_SIGN_IN);
    return c.post(PASSKEY_SIGN_IN, { credential: key.get(pageOptions(c.lastPage, 'get'), origin) });
  }

  it('adds a passkey with recovery codes, then signs in with password and passkey, and with the passkey alone', async () => {
    const person = await member(t, acme, 'keyholder@example.com', 'developer');
    const { key, recoveryCodes } = await enrolPasskey(person, 'Laptop');
    expect(recoveryCodes).toHaveLength(10);
    const listed = await person.get('/portal/settings/two-factor');
    expect(listed.text).toContain('Laptop');
    expect(listed.text).toContain('<span class="cell">Passkey</span>');

    const c = await passwordStep('keyholder@example.com');
    expect(c.lastPage).toContain('Use a passkey');
    expect((await usePasskey(c, key)).headers.get('location')).toBe('/portal/projects');
    expect((await c.get('/portal/projects')).status).toBe(200);

    const alone = browser();
    expect((await passkeySignIn(alone, key)).headers.get('location')).toBe('/portal/projects');
    expect((await alone.get('/portal/projects')).status).toBe(200);
    expect(await activity(acme.id)).toEqual(expect.arrayContaining(['two_factor.add', 'sign_in.success']));
  });

  it('refuses a replayed assertion, another session’s challenge, an expired one and a wrong origin', async () => {
    const person = await member(t, acme, 'refusals@example.com', 'developer');
    const { key } = await enrolPasskey(person);

    const c = await passwordStep('refusals@example.com');
    const answer = key.get(pageOptions(c.lastPage, 'get'), passkeyOrigin(c));
    const other = await passwordStep('refusals@example.com');
    // The challenge is bound to the session it was shown to: another one's post of it is refused.
    const o = await other.post(`${SECOND_STEP}/passkey`, { credential: answer });
    expect(o.status).toBe(401);
    expect(o.text).toContain('That passkey was not accepted.');
    expect((await c.post(`${SECOND_STEP}/passkey`, { credential: answer })).headers.get('location')).toBe(
      '/portal/projects',
    );
    // Used, the challenge is gone: the same answer is refused in the other session now too.
    await other.get(SECOND_STEP);
    expect((await other.post(`${SECOND_STEP}/passkey`, { credential: answer })).status).toBe(401);
    const fresh = await passwordStep('refusals@example.com');
    expect((await usePasskey(fresh, key, 'http://evil.example')).status).toBe(401);
    await fresh.get(SECOND_STEP);
    const late = key.get(pageOptions(fresh.lastPage, 'get'), passkeyOrigin(fresh));
    skew += FIVE_MINUTES + 1000;
    expect((await fresh.post(`${SECOND_STEP}/passkey`, { credential: late })).status).toBe(401);
    await fresh.get(SECOND_STEP);
    expect((await usePasskey(fresh, key)).headers.get('location')).toBe('/portal/projects');
  });

  it('refuses an assertion replayed after it signed in, a counter gone back and an unknown passkey', async () => {
    const person = await member(t, acme, 'counter@example.com', 'developer');
    const { key } = await enrolPasskey(person);
    const c = browser();
    await c.get(PASSKEY_SIGN_IN);
    const answer = key.get(pageOptions(c.lastPage, 'get'), passkeyOrigin(c));
    expect((await c.post(PASSKEY_SIGN_IN, { credential: answer })).headers.get('location')).toBe('/portal/projects');
    const replay = browser();
    await replay.get(PASSKEY_SIGN_IN);
    expect((await replay.post(PASSKEY_SIGN_IN, { credential: answer })).status).toBe(401);

    // A cloned authenticator signs with a counter the server has seen: refused.
    key.counter -= 1;
    const cloned = await passkeySignIn(browser(), key);
    expect(cloned.status).toBe(401);
    expect(cloned.text).toContain('That passkey did not sign you in.');
    expect((await passkeySignIn(browser(), new SoftAuthenticator())).status).toBe(401);
    expect((await passkeySignIn(browser(), key)).headers.get('location')).toBe('/portal/projects');
    expect(await activity(acme.id)).toContain('sign_in.failure');
  });

  it('refuses a passkey made for another origin or without a challenge of this session', async () => {
    const person = await member(t, acme, 'register@example.com', 'developer');
    const setup = await person.get(PASSKEY_SETUP);
    const options = pageOptions(setup.text, 'create');
    const wrong = await person.post(PASSKEY_SETUP, {
      credential: new SoftAuthenticator().create(options, 'http://evil.example'),
      label: 'Phished',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('could not be checked');
    // The refusal took that challenge: the same options answered again are refused too.
    const again = await person.post(PASSKEY_SETUP, {
      credential: new SoftAuthenticator().create(options, passkeyOrigin(person)),
    });
    expect(again.status).toBe(400);
    expect((await person.post(PASSKEY_SETUP, { credential: '{"id":' })).status).toBe(400);
    expect((await person.get('/portal/settings/two-factor')).text).toContain('Two-factor authentication is off');
  });

  it(`refuses passkeys after ${SIGN_IN_LIMITS.email} failures for the email, even the right one`, async () => {
    const person = await member(t, acme, 'limited@example.com', 'developer');
    const { key } = await enrolPasskey(person);
    const c = await passwordStep('limited@example.com');
    for (let i = 0; i < SIGN_IN_LIMITS.email; i++)
      expect((await usePasskey(c, key, 'http://evil.example')).status).toBe(401);
    const limited = await usePasskey(c, key);
    expect(limited.status).toBe(429);
    expect((await passkeySignIn(browser(), key)).status).toBe(429);
  });

  it('logs a recovery code used at sign-in as its own entry', async () => {
    const account = await createAccount(t, 'Recovering');
    const person = await member(t, account, 'recovering@example.com', 'developer');
    const { recoveryCodes } = await enrolPasskey(person);
    const c = await passwordStep('recovering@example.com');
    // With a passkey and no app, the code field asks for a recovery code, not an app's code.
    expect(c.lastPage).toContain('<label for="code">Recovery code</label>');
    expect(c.lastPage).not.toContain('authenticator app');
    expect((await c.post(SECOND_STEP, { code: recoveryCodes[0] ?? '' })).headers.get('location')).toBe(
      '/portal/projects',
    );
    expect(await activity(account.id)).toEqual(
      expect.arrayContaining(['two_factor.recovery_code_used', 'sign_in.success']),
    );
  });

  it('lets a member of an account requiring 2FA enrol a passkey instead of an app, and keeps it as the last factor', async () => {
    const account = await createAccount(t, 'Strict keys');
    const dev = await member(t, account, 'strict-keys@example.com', 'developer');
    await json(['account', 'require-2fa', account.id, '--on']);
    expect((await dev.get('/portal/projects')).headers.get('location')).toBe('/portal/settings/two-factor/totp');
    expect((await dev.get('/portal/settings/two-factor/totp')).text).toContain('add a passkey instead');
    await enrolPasskey(dev);
    expect((await dev.get('/portal/projects')).status).toBe(200);
    const factors = await dev.get('/portal/settings/two-factor');
    expect(factors.text).toContain('Your only factor');
    await enrolPasskey(dev, 'Key 2');
    const id = /two-factor\/(fac_[\w-]+)\/remove/.exec((await dev.get('/portal/settings/two-factor')).text)?.[1];
    expect((await dev.post(`/portal/settings/two-factor/${id}/remove`)).headers.get('location')).toBe(
      '/portal/settings/two-factor',
    );
    expect((await dev.get('/portal/settings/two-factor')).text).toContain('Your only factor');
  });

  it('resets passkeys with the other factors from the CLI', async () => {
    const person = await member(t, acme, 'reset-keys@example.com', 'developer');
    const { key } = await enrolPasskey(person);
    expect(await json(['user', 'reset-2fa', '--email', 'reset-keys@example.com'])).toEqual({
      email: 'reset-keys@example.com',
      factors: 0,
    });
    expect((await passkeySignIn(browser(), key)).status).toBe(401);
    expect((await browser().signInAs('reset-keys@example.com', PASSWORD)).headers.get('location')).toBe(
      '/portal/projects',
    );
  });

  it(`opens at most ${PASSKEY_CHALLENGES_PER_ADDRESS} passkey sign-in pages per address in 15 minutes`, async () => {
    // A fresh window: each page stores a challenge before anyone has proved anything.
    skew += 15 * 60 * 1000;
    const c = browser();
    for (let i = 0; i < PASSKEY_CHALLENGES_PER_ADDRESS; i++) expect((await c.get(PASSKEY_SIGN_IN)).status).toBe(200);
    const refused = await c.get(PASSKEY_SIGN_IN);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.text).not.toContain('data-passkey-get');
    expect((await c.get('/portal/login')).status).toBe(200);
    skew += 15 * 60 * 1000;
    expect((await c.get(PASSKEY_SIGN_IN)).status).toBe(200);
  });
});
