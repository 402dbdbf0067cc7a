import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../src/portal/auth/sign-in-limits.ts';
import { adminCommands } from '../cli/cli-runner.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, member, PASSWORD, PeopleClient, type TestAccount } from './people-client.ts';
import { appCode, enrolTotp } from './two-factor-flow.ts';

const SECOND_STEP = '/portal/login/second-factor';
const SETUP = '/portal/settings/two-factor/totp';

describe('a second factor in the account portal', () => {
  let t: TestUpstream;
  let acme: TestAccount;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await startTestUpstream({ routes: [] });
    acme = await createAccount(t, 'Acme');
    env = { ADMIN_URL: t.upstream.adminUrl, DATA_DIR: t.dataDir };
  });
  afterAll(async () => {
    await t?.destroy();
  });
  const { json, fails } = adminCommands(() => env);
  const browser = () => new PeopleClient(t.upstream.adminUrl);

  /** Signs in with the password: the answer sends the browser on to the second step. */
  async function passwordStep(email: string): Promise<PeopleClient> {
    const c = browser();
    const res = await c.signInAs(email, PASSWORD);
    expect(res.headers.get('location')).toBe(SECOND_STEP);
    await c.get(SECOND_STEP);
    return c;
  }

  it('signs in with a code of the next step once, refuses it replayed, and opens nothing before it', async () => {
    const setter = await member(t, acme, 'totp@example.com', 'developer');
    const { secret, setupCode, recoveryCodes } = await enrolTotp(setter);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    const c = await passwordStep('totp@example.com');
    expect((await c.get('/portal/projects')).headers.get('location')).toBe('/portal/login');
    // The setup used its code up: typed again it is refused; the next step's (+1 skew) is taken.
    expect((await c.post(SECOND_STEP, { code: setupCode })).status).toBe(401);
    const code = appCode(secret, 1);
    const signedIn = await c.post(SECOND_STEP, { code });
    expect(signedIn.headers.get('location')).toBe('/portal/projects');
    expect((await c.get('/portal/projects')).status).toBe(200);

    const replay = await passwordStep('totp@example.com');
    const refused = await replay.post(SECOND_STEP, { code });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('was used already');
    expect((await replay.get('/portal/projects')).headers.get('location')).toBe('/portal/login');
  });

  it('signs in with a recovery code once, in any case and spacing', async () => {
    const setter = await member(t, acme, 'recover@example.com', 'viewer');
    const { recoveryCodes } = await enrolTotp(setter);
    const [code = ''] = recoveryCodes;
    const c = await passwordStep('recover@example.com');
    expect((await c.post(SECOND_STEP, { code: ` ${code.toUpperCase()} ` })).headers.get('location')).toBe(
      '/portal/projects',
    );
    const again = await passwordStep('recover@example.com');
    expect((await again.post(SECOND_STEP, { code })).status).toBe(401);
    const listed = await setter.get('/portal/settings/two-factor');
    expect(listed.text).toContain('9 of 10 recovery codes unused');
  });

  it(`refuses the second step after ${SIGN_IN_LIMITS.email} failures for the email, even with the right code`, async () => {
    const setter = await member(t, acme, 'guessed@example.com', 'developer');
    const { secret } = await enrolTotp(setter);
    const c = await passwordStep('guessed@example.com');
    for (let i = 0; i < SIGN_IN_LIMITS.email; i++)
      expect((await c.post(SECOND_STEP, { code: String(100000 + i) })).status).toBe(401);
    const limited = await c.post(SECOND_STEP, { code: appCode(secret, 1) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(t.logs()).not.toContain(appCode(secret, 1));
  });

  it('sends members of an account requiring 2FA to the setup until they have a factor, and keeps their last one', async () => {
    const account = await createAccount(t, 'Strict');
    const owner = await member(t, account, 'boss@example.com', 'owner');
    const dev = await member(t, account, 'dev@strict.example', 'developer');
    await owner.get('/portal/people');
    const set = await owner.post(`/portal/accounts/${account.id}/require-2fa`, { require_2fa: 'true' });
    expect(set.headers.get('location')).toBe('/portal/people');
    // Both are sent to the setup, whatever they ask for, a form post included.
    for (const path of ['/portal/projects', '/portal/people', '/portal/settings', '/portal/settings/two-factor'])
      expect((await dev.get(path)).headers.get('location'), path).toBe(SETUP);
    await dev.get(SETUP);
    expect((await dev.post('/portal/settings/sign-out-everywhere')).headers.get('location')).toBe(SETUP);
    await enrolTotp(dev);
    expect((await dev.get('/portal/projects')).status).toBe(200);

    const factors = await dev.get('/portal/settings/two-factor');
    expect(factors.text).toContain('Your only factor');
    expect(factors.text).not.toMatch(/two-factor\/fac_[\w-]+\/remove/);
    const activity = (await json(['account', 'activity', account.id])) as Array<{ action: string }>;
    expect(activity.map((e) => e.action)).toEqual(expect.arrayContaining(['two_factor.required', 'two_factor.add']));
  });

  it('removes a factor, but not the last one while an account requires 2FA', async () => {
    const account = await createAccount(t, 'Removal');
    const owner = await member(t, account, 'remover@example.com', 'owner');
    await enrolTotp(owner);
    await enrolTotp(owner);
    const page = await owner.get('/portal/settings/two-factor');
    const ids = [...page.text.matchAll(/two-factor\/(fac_[\w-]+)\/remove/g)].map((m) => m[1] ?? '');
    expect(ids).toHaveLength(2);
    expect((await json(['account', 'require-2fa', account.id, '--on'])) as object).toEqual({
      id: account.id,
      require_2fa: true,
    });
    await owner.post(`/portal/settings/two-factor/${ids[0]}/remove`);
    const last = await owner.follow(await owner.post(`/portal/settings/two-factor/${ids[1]}/remove`));
    expect(last.text).toContain('requires two-factor authentication');
    expect(last.text).toContain('Your only factor');
    expect((await fails(['account', 'require-2fa', account.id])).stderr).toContain('give one of --on or --off');
    await json(['account', 'require-2fa', account.id, '--off']);
    const removed = await owner.follow(await owner.post(`/portal/settings/two-factor/${ids[1]}/remove`));
    expect(removed.text).toContain('Factor removed.');
    expect(removed.text).toContain('Two-factor authentication is off');
  });

  it('lists the person’s sessions with device and address, and signs one of them out', async () => {
    const laptop = await member(t, acme, 'two-devices@example.com', 'developer');
    const phone = browser();
    await phone.request('GET', '/portal/login', {
      headers: { 'user-agent': 'Mozilla/5.0 (Android 15) Firefox/133.0' },
    });
    const signedIn = await phone.request('POST', '/portal/login', {
      form: { csrf_token: phone.csrfToken(), email: 'two-devices@example.com', password: PASSWORD },
      headers: { 'user-agent': 'Mozilla/5.0 (Android 15) Firefox/133.0' },
    });
    expect(signedIn.headers.get('location')).toBe('/portal/projects');
    const settings = await laptop.get('/portal/settings');
    expect(settings.text).toContain('Firefox on Android');
    expect(settings.text).toContain('This session');
    expect(settings.text).toContain('127.0.0.1');
    const end = /action="(\/portal\/settings\/sessions\/\d+\/end)"/.exec(settings.text)?.[1] ?? '';
    expect((await phone.get('/portal/projects')).status).toBe(200);
    expect((await laptop.post(end)).headers.get('location')).toBe('/portal/settings');
    expect((await phone.get('/portal/projects')).headers.get('location')).toBe('/portal/login');
    expect((await laptop.get('/portal/projects')).status).toBe(200);
  });

  it('resets a person’s factors from the CLI, logged, so the password alone signs them in', async () => {
    const account = await createAccount(t, 'Lost phone');
    const person = await member(t, account, 'lost@example.com', 'developer');
    await enrolTotp(person);
    expect(await json(['user', 'reset-2fa', '--email', 'LOST@example.com'])).toEqual({
      email: 'lost@example.com',
      factors: 0,
    });
    const c = browser();
    expect((await c.signInAs('lost@example.com', PASSWORD)).headers.get('location')).toBe('/portal/projects');
    const activity = (await json(['account', 'activity', account.id])) as Array<{ action: string; actor: string }>;
    expect(activity).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'two_factor.reset', actor: 'operator' })]),
    );
  });
});
