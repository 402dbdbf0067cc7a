import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { startReplicaPair } from './replica-pair.ts';
import { createAccount, member, PASSWORD, PeopleClient, type TestAccount } from './people-client.ts';
import { appCode, enrolTotp } from './two-factor-flow.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const base = process.env.TEST_DATABASE_URL;
const SECOND_STEP = '/portal/login/second-factor';

/**
 * Two upstream replicas on one PostgreSQL: each change of the second factor made through one holds
 * on the other at its very next request (the portal caches neither sessions nor the 2FA rule):
 * the rule, a code used once, a reset, and sessions ended.
 */
describe.skipIf(!base)(postgresTitle('the second factor across replicas'), () => {
  let a: TestUpstream;
  let b: TestUpstream;
  let close: () => Promise<void>;
  let account: TestAccount;

  beforeAll(async () => {
    ({ a, b, close } = await startReplicaPair(base!));
    account = await createAccount(a, 'Replicated');
  }, 120_000);
  afterAll(() => close?.());

  it('holds the rule, a used code and a reset made on one replica at once on the other', async () => {
    const dev = await member(a, account, 'dev@replicas.example', 'developer');
    dev.base = b.upstream.adminUrl;
    expect((await dev.get('/portal/projects')).status).toBe(200);
    expect((await a.admin('POST', `/accounts/${account.id}/require-2fa`, { require_2fa: true })).status).toBe(200);
    expect((await dev.get('/portal/projects')).headers.get('location')).toBe('/portal/settings/two-factor/totp');
    const { secret } = await enrolTotp(dev);

    const atA = new PeopleClient(a.upstream.adminUrl);
    expect((await atA.signInAs('dev@replicas.example', PASSWORD)).headers.get('location')).toBe(SECOND_STEP);
    await atA.get(SECOND_STEP);
    const code = appCode(secret, 1);
    expect((await atA.post(SECOND_STEP, { code })).headers.get('location')).toBe('/portal/projects');

    const atB = new PeopleClient(b.upstream.adminUrl);
    await atB.signInAs('dev@replicas.example', PASSWORD);
    await atB.get(SECOND_STEP);
    expect((await atB.post(SECOND_STEP, { code })).status).toBe(401);

    expect((await b.admin('POST', '/people/reset-2fa', { email: 'dev@replicas.example' })).body).toMatchObject({
      factors: 0,
      removed: 1,
    });
    const again = new PeopleClient(a.upstream.adminUrl);
    expect((await again.signInAs('dev@replicas.example', PASSWORD)).headers.get('location')).toBe('/portal/projects');
    expect((await again.get('/portal/projects')).headers.get('location')).toBe('/portal/settings/two-factor/totp');
  });

  it('ends a session listed on one replica, and every session signed out everywhere, on the other', async () => {
    const laptop = await member(a, account, 'roam@replicas.example', 'viewer');
    await a.admin('POST', `/accounts/${account.id}/require-2fa`, { require_2fa: false });
    const phone = new PeopleClient(b.upstream.adminUrl);
    await phone.signInAs('roam@replicas.example', PASSWORD);
    const tablet = new PeopleClient(b.upstream.adminUrl);
    await tablet.signInAs('roam@replicas.example', PASSWORD);
    expect((await phone.get('/portal/projects')).status).toBe(200);

    const listed = await laptop.get('/portal/settings');
    const ends = [...listed.text.matchAll(/action="(\/portal\/settings\/sessions\/\d+\/end)"/g)].map((m) => m[1] ?? '');
    expect(ends).toHaveLength(2);
    await laptop.post(ends[0] ?? '');
    const stillIn = [(await phone.get('/portal/projects')).status, (await tablet.get('/portal/projects')).status];
    expect(stillIn.sort()).toEqual([200, 303]);

    await laptop.get('/portal/settings');
    await laptop.post('/portal/settings/sign-out-everywhere');
    for (const c of [phone, tablet, laptop])
      expect((await c.get('/portal/projects')).headers.get('location')).toBe('/portal/login');
  });
});
