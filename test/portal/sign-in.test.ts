import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../src/portal/auth/sign-in-limits.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, member, PASSWORD, PeopleClient, type TestAccount } from './people-client.ts';

describe('signing in to the account portal', () => {
  let t: TestUpstream;
  let acme: TestAccount;
  beforeAll(async () => {
    t = await startTestUpstream({ routes: [] });
    acme = await createAccount(t, 'Acme');
  });
  afterAll(async () => {
    await t?.destroy();
  });
  const client = () => new PeopleClient(t.upstream.adminUrl);

  it('shows a sign-in form whose fields are labelled Email and Password', async () => {
    const page = await client().get('/portal/login');
    expect(page.text).toMatch(/<label for="email">Email<\/label>/);
    expect(page.text).toMatch(/<label for="password">Password<\/label>/);
    expect((await client().get('/portal/projects')).headers.get('location')).toBe('/portal/login');
  });

  it('signs in with email (any case, spaces around) and password, and out again', async () => {
    await member(t, acme, 'dev@example.com', 'developer');
    const c = client();
    const res = await c.signInAs('  DEV@example.com ', PASSWORD);
    expect(res.status).toBe(303);
    expect((await c.get('/portal/projects')).status).toBe(200);
    await c.post('/portal/logout');
    expect((await c.get('/portal/projects')).headers.get('location')).toBe('/portal/login');
  });

  it('answers an unknown email exactly as a wrong password, and logs neither email nor password', async () => {
    await member(t, acme, 'known@example.com', 'viewer');
    const wrong = await client().signInAs('known@example.com', 'wrong password here');
    const unknown = await client().signInAs('nobody@example.com', 'wrong password here');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const message = (text: string) => /<div class="error-summary"[\s\S]*?<\/div>/.exec(text)?.[0];
    expect(message(unknown.text)).toBe(message(wrong.text));
    expect(t.logs()).not.toContain('nobody@example.com');
    expect(t.logs()).not.toContain('wrong password here');
  });

  it(`refuses further attempts for an email after ${SIGN_IN_LIMITS.email} failures, known or unknown alike, even with the right password`, async () => {
    await member(t, acme, 'target@example.com', 'owner');
    for (const email of ['target@example.com', 'ghost@example.com']) {
      for (let i = 0; i < SIGN_IN_LIMITS.email; i++)
        expect((await client().signInAs(email, `guess number ${i}`)).status).toBe(401);
      const limited = await client().signInAs(email, PASSWORD);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('ends every session of the person with “sign out everywhere”', async () => {
    const laptop = await member(t, acme, 'roam@example.com', 'developer');
    const phone = client();
    expect((await phone.signInAs('roam@example.com', PASSWORD)).status).toBe(303);
    await laptop.get('/portal/settings');
    const out = await laptop.post('/portal/settings/sign-out-everywhere');
    expect(out.headers.get('location')).toBe('/portal/login');
    expect((await phone.get('/portal/projects')).headers.get('location')).toBe('/portal/login');
    expect((await laptop.get('/portal/projects')).headers.get('location')).toBe('/portal/login');
  });

  it('changes the password only with the current one, signing out the other sessions', async () => {
    const here = await member(t, acme, 'change@example.com', 'developer');
    const there = client();
    await there.signInAs('change@example.com', PASSWORD);
    await here.get('/portal/settings');
    const refused = await here.post('/portal/settings/password', {
      current_password: 'not the password',
      password: 'a brand new passphrase',
      confirm_password: 'a brand new passphrase',
    });
    expect(refused.status).toBe(401);
    const changed = await here.post('/portal/settings/password', {
      current_password: PASSWORD,
      password: 'a brand new passphrase',
      confirm_password: 'a brand new passphrase',
    });
    expect(changed.status).toBe(303);
    expect((await here.get('/portal/settings')).text).toContain('Password changed.');
    expect((await there.get('/portal/projects')).headers.get('location')).toBe('/portal/login');
    expect((await client().signInAs('change@example.com', PASSWORD)).status).toBe(401);
    expect((await client().signInAs('change@example.com', 'a brand new passphrase')).status).toBe(303);
  });

  it('keeps operator and person sessions apart: the console cookie does not open the portal', async () => {
    const operator = new PeopleClient(t.upstream.adminUrl);
    await operator.get('/console/login');
    await operator.post('/console/login', { admin_token: t.adminToken });
    const session = operator.cookies.get('tokengate_portal') ?? '';
    const res = await fetch(`${t.upstream.adminUrl}/portal/projects`, {
      headers: { cookie: `tokengate_portal=${session}` },
      redirect: 'manual',
    });
    expect(res.headers.get('location')).toBe('/portal/login');
  });

  it('answers the favicon with an icon, not a 401', async () => {
    const res = await fetch(`${t.upstream.adminUrl}/portal/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
  });
});
