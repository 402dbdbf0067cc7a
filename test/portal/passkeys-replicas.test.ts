import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { enrolPasskey, PASSKEY_SIGN_IN } from './passkey-flow.ts';
import { startReplicaPair } from './replica-pair.ts';
import { createAccount, member, PeopleClient, type TestAccount } from './people-client.ts';
import { pageOptions, type SoftAuthenticator } from './soft-authenticator.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const base = process.env.TEST_DATABASE_URL;
/** Both replicas publish the portal at one URL (a load balancer's): the passkeys' site and origin. */
const PORTAL_URL = 'http://portal.test/portal';
const ORIGIN = 'http://portal.test';

/**
 * Two upstream replicas on one PostgreSQL behind one PORTAL_URL: a challenge shown by one is
 * answered at the other, an assertion counts once across both, and a passkey removed through
 * one signs in at neither from the next request on.
 */
describe.skipIf(!base)(postgresTitle('passkeys across replicas'), () => {
  let a: TestUpstream;
  let b: TestUpstream;
  let close: () => Promise<void>;
  let account: TestAccount;

  beforeAll(async () => {
    ({ a, b, close } = await startReplicaPair(base!, { PORTAL_URL }));
    account = await createAccount(a, 'Replicated keys');
  }, 120_000);
  afterAll(() => close?.());

  /** The passkey sign-in page opened at one replica: its challenge and the browser's answer. */
  async function answerAt(upstream: TestUpstream, key: SoftAuthenticator) {
    const c = new PeopleClient(upstream.upstream.adminUrl);
    await c.get(PASSKEY_SIGN_IN);
    return { c, credential: key.get(pageOptions(c.lastPage, 'get'), ORIGIN) };
  }

  it('takes a challenge of one replica at the other, and an assertion once across both', async () => {
    const person = await member(a, account, 'keys@replicas.example', 'developer');
    const { key } = await enrolPasskey(person, 'Laptop', ORIGIN);
    const { c, credential } = await answerAt(a, key);
    c.base = b.upstream.adminUrl;
    expect((await c.post(PASSKEY_SIGN_IN, { credential })).headers.get('location')).toBe('/portal/projects');

    // The same answer posted to both replicas at once, each in a browser with its own challenge
    // page: the challenge (and the counter) let one through.
    const first = await answerAt(a, key);
    const second = new PeopleClient(b.upstream.adminUrl);
    await second.get(PASSKEY_SIGN_IN);
    second.cookies.clear();
    for (const [name, value] of first.c.cookies) second.cookies.set(name, value);
    second.lastPage = first.c.lastPage;
    const both = await Promise.all([
      first.c.post(PASSKEY_SIGN_IN, { credential: first.credential }),
      second.post(PASSKEY_SIGN_IN, { credential: first.credential }),
    ]);
    expect(both.map((res) => res.status).sort()).toEqual([303, 401]);
  });

  it('refuses a passkey removed through one replica at the other from the next request', async () => {
    const person = await member(a, account, 'removed@replicas.example', 'developer');
    const { key } = await enrolPasskey(person, 'Old key', ORIGIN);
    const listed = await person.get('/portal/settings/two-factor');
    const id = /two-factor\/(fac_[\w-]+)\/remove/.exec(listed.text)?.[1] ?? '';
    const pending = await answerAt(b, key);
    expect((await person.post(`/portal/settings/two-factor/${id}/remove`)).status).toBe(303);
    expect((await pending.c.post(PASSKEY_SIGN_IN, { credential: pending.credential })).status).toBe(401);
    const later = await answerAt(b, key);
    expect((await later.c.post(PASSKEY_SIGN_IN, { credential: later.credential })).status).toBe(401);
  });
});
