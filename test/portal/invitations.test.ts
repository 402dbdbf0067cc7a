import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '#test/fake-clock.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, invite, PASSWORD, PeopleClient, type TestAccount } from './people-client.ts';

describe('invitations into an account', () => {
  const clock = createFakeClock(Date.now());
  let t: TestUpstream;
  let acme: TestAccount;
  beforeAll(async () => {
    t = await startTestUpstream({ routes: [], clock });
    acme = await createAccount(t, 'Acme');
  });
  afterAll(async () => {
    await t?.destroy();
  });
  const client = () => new PeopleClient(t.upstream.adminUrl);

  it('gives an absolute link under the portal, opening a form with Password and Confirm password', async () => {
    const url = await invite(t, acme.id, 'Owner@Example.com ', 'owner');
    expect(url).toMatch(new RegExp(`^${t.upstream.adminUrl}/portal/invitation\\?token=[\\w-]{43}$`));
    const c = client();
    const page = await c.get(new URL(url).pathname + new URL(url).search);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<label for="password">Password<\/label>/);
    expect(page.text).toMatch(/<label for="confirm-password">Confirm password<\/label>/);
    expect(page.text).toContain('owner@example.com');
  });

  it('sets the password once: the person lands signed in on the account’s projects, and the link is then used up', async () => {
    const url = await invite(t, acme.id, 'first@example.com', 'owner');
    const c = client();
    const accepted = await c.accept(url, PASSWORD);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe('/portal/projects');
    expect((await c.get('/portal/projects')).status).toBe(200);
    const again = await client().accept(url, 'another good passphrase');
    expect(again.status).toBe(410);
    expect(again.text).toContain('has been used already');
    // The second use changed nothing: the first password still signs in.
    expect((await client().signInAs('first@example.com', PASSWORD)).status).toBe(303);
    expect((await client().signInAs('first@example.com', 'another good passphrase')).status).toBe(401);
  });

  it('refuses weak, common, email-like and mismatched passwords, keeping the link usable', async () => {
    const url = await invite(t, acme.id, 'picky@example.com', 'developer');
    const cases: Array<[string, string, string]> = [
      ['short', 'short', 'Use at least 10 characters.'],
      ['1234567890', '1234567890', 'list of common passwords'],
      ['Qwertyuiop', 'Qwertyuiop', 'list of common passwords'],
      ['picky-secret-words', 'picky-secret-words', 'Do not use your email address'],
      ['a long enough phrase', 'a long enough phrasE', 'The two passwords differ.'],
    ];
    for (const [password, confirm, message] of cases) {
      const res = await client().accept(url, password, confirm);
      expect({ password, status: res.status, says: res.text.includes(message) }).toEqual({
        password,
        status: 400,
        says: true,
      });
    }
    expect((await client().accept(url, PASSWORD)).status).toBe(303);
  });

  it('refuses an expired link (72 hours) and an unknown one', async () => {
    const url = await invite(t, acme.id, 'late@example.com', 'viewer');
    clock.advance(72 * 60 * 60 * 1000 + 1);
    const expired = await client().accept(url, PASSWORD);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('has expired');
    const unknown = await client().get(`/portal/invitation?token=${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
  });

  it('joins a person who already has a password to a second account after they prove it, in that account only', async () => {
    const other = await createAccount(t, 'Other Co');
    const person = client();
    expect((await person.accept(await invite(t, acme.id, 'both@example.com', 'viewer'), PASSWORD)).status).toBe(303);
    const url = await invite(t, other.id, 'both@example.com', 'developer');
    const page = await client().get(new URL(url).pathname + new URL(url).search);
    expect(page.text).toContain('You already have a sign-in');
    expect(page.text).not.toContain('Confirm password');
    expect((await client().accept(url, 'not my password at all')).status).toBe(401);
    expect((await client().accept(url, PASSWORD)).status).toBe(303);
    const people = await person.get('/portal/people');
    expect(people.text).toContain('Acme');
    expect(people.text).toContain('Other Co');
  });

  it('never writes the link’s token or a password into the log', async () => {
    const url = await invite(t, acme.id, 'quiet@example.com', 'viewer');
    await client().accept(url, PASSWORD);
    const token = new URL(url).searchParams.get('token') ?? '';
    expect(t.logs()).not.toContain(token);
    expect(t.logs()).not.toContain(PASSWORD);
  });
});
