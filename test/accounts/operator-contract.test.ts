import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommands } from '../cli/cli-runner.ts';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

type Json = Record<string, unknown>;

/** The account commands of ARCHITECTURE.md's operator contract, driven through the CLI (in-process). */
describe('tokengate admin account … (operator contract)', () => {
  let t: TestUpstream;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await startTestUpstream();
    env = { ADMIN_URL: t.upstream.adminUrl, DATA_DIR: t.dataDir };
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const cli = adminCommands(() => env);
  const json = async (args: string[]) => (await cli.json(args)) as Json;
  const { fails } = cli;

  it('creates an account, a project in it, changes the plan, disables and enables it, printing the documented values', async () => {
    const account = await json(['account', 'create', '--name', 'Acme Pty Ltd', '--plan', 'business']);
    expect(account).toEqual({ id: expect.stringMatching(/^acc_/), name: 'Acme Pty Ltd', plan: 'business' });
    const id = String(account['id']);
    const project = await json(['project', 'create', '--account', id, '--name', 'Web']);
    expect(project).toEqual({ id: expect.stringMatching(/^prj_/), name: 'Web', plan: 'business', account_id: id });
    expect(await json(['account', 'plan', id, '--plan', 'enterprise'])).toEqual({ id, plan: 'enterprise' });
    expect(await t.admin('GET', `/projects/${String(project['id'])}`)).toMatchObject({
      body: { plan: 'enterprise', account_id: id },
    });
    expect(await json(['account', 'disable', id])).toEqual({ id, enabled: false });
    expect(await json(['account', 'enable', id])).toEqual({ id, enabled: true });
  });

  it('invites a person with `user invite`, printing {email, role, account_id, invite_url} with an absolute link', async () => {
    const account = await json(['account', 'create', '--name', 'Invites', '--plan', 'free']);
    const id = String(account['id']);
    const invited = await json(['user', 'invite', '--account', id, '--email', 'Boss@Example.com', '--role', 'owner']);
    expect(invited).toEqual({
      email: 'boss@example.com',
      role: 'owner',
      account_id: id,
      invite_url: expect.stringMatching(new RegExp(`^${t.upstream.adminUrl}/portal/invitation\\?token=[\\w-]{43}$`)),
    });
    expect(
      (await fails(['user', 'invite', '--account', id, '--email', 'x@example.com', '--role', 'admin'])).stderr,
    ).toContain('--role must be one of owner, developer, viewer');
    expect((await fails(['user', 'invite', '--account', id, '--email', 'nope', '--role', 'viewer'])).stderr).toContain(
      'email: not an email address (HTTP 400)',
    );
  });

  it('keeps `project create --name N --plan P` printing {id, name, plan}, in a new account of plan P', async () => {
    const project = await json(['project', 'create', '--name', 'Solo', '--plan', 'free']);
    expect(Object.keys(project)).toEqual(['id', 'name', 'plan']);
    const detail = await t.admin('GET', `/projects/${String(project['id'])}`);
    const accountId = String((detail.body as Json)['account_id']);
    expect(await t.admin('GET', `/accounts/${accountId}`)).toMatchObject({
      status: 200,
      body: { id: accountId, name: 'Solo', plan: 'free', enabled: true },
    });
  });

  it('fails with a clear message for an unknown account, a bad plan, and --plan beside --account', async () => {
    expect((await fails(['account', 'disable', 'acc_missing'])).stderr).toContain(
      'account "acc_missing" does not exist (HTTP 404)',
    );
    expect((await fails(['project', 'create', '--account', 'acc_missing', '--name', 'x'])).stderr).toContain(
      '(HTTP 404)',
    );
    expect((await fails(['account', 'plan', 'acc_x', '--plan', 'gold'])).stderr).toContain(
      '--plan must be one of free, business, enterprise',
    );
    expect((await fails(['account', 'create', '--name', 'x'])).stderr).toContain('missing --plan');
    expect(
      (await fails(['project', 'create', '--account', 'acc_x', '--plan', 'free', '--name', 'x'])).stderr,
    ).toContain('--plan and --account exclude each other');
  });
});

describe('a disabled account (admin API)', () => {
  let t: TestUpstream;
  beforeAll(async () => {
    t = await startTestUpstream();
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const tokenStatus = async (clientId: string, secret: string): Promise<number> => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
    const res = await fetch(`${t.upstream.url}/oauth/token`, { method: 'POST', body: form });
    await res.body?.cancel();
    return res.status;
  };
  const phone = async (init: { token?: string; key?: { key: string; secret: string } }): Promise<number> => {
    const query = init.key ? `&key=${init.key.key}&secret=${init.key.secret}` : '';
    const res = await fetch(
      `${t.upstream.url}/api/phone/v1/verification?phone_number=%2B61298765432&default_country_code=AU${query}`,
      init.token ? { headers: { authorization: `Bearer ${init.token}` } } : {},
    );
    await res.body?.cancel();
    return res.status;
  };

  it('refuses its clients at the token endpoint, revokes their tokens and refuses its API keys until enabled', async () => {
    const account = (await t.admin('POST', '/accounts', { name: 'Acme', plan: 'business' })).body as Json;
    const project = (await t.admin('POST', `/accounts/${String(account['id'])}/projects`, { name: 'p' })).body as Json;
    const client = (
      await t.admin('POST', `/projects/${String(project['id'])}/clients`, { name: 'c', scopes: ['phone'] })
    ).body as Json;
    const key = (await t.admin('POST', `/projects/${String(project['id'])}/apikeys`)).body as {
      key: string;
      secret: string;
    };
    const [clientId, secret] = [String(client['client_id']), String(client['client_secret'])];
    const token = await clientCredentialsToken(t.upstream.url, clientId, secret);
    expect(await phone({ token })).toBe(200);
    expect(await phone({ key })).toBe(200);

    expect(await t.admin('POST', `/accounts/${String(account['id'])}/disable`)).toMatchObject({
      status: 200,
      body: { id: account['id'], enabled: false },
    });
    expect(await tokenStatus(clientId, secret)).toBe(401);
    expect(await phone({ token })).toBe(401);
    await expect.poll(() => phone({ key }), { timeout: 5000 }).toBe(401);
    expect(t.logs()).toContain('account disabled');

    await t.admin('POST', `/accounts/${String(account['id'])}/enable`);
    // Seen within the issuer's client cache lifetime (10 s), as a client enabled on another replica.
    await expect.poll(() => tokenStatus(clientId, secret), { timeout: 15_000, interval: 1000 }).toBe(200);
    expect(await phone({ token })).toBe(401);
    await expect.poll(() => phone({ key }), { timeout: 5000 }).toBe(200);
  });

  it('refuses its clients tokens once the account moved to the free plan', async () => {
    const account = (await t.admin('POST', '/accounts', { name: 'Down', plan: 'enterprise' })).body as Json;
    const project = (await t.admin('POST', `/accounts/${String(account['id'])}/projects`, { name: 'p' })).body as Json;
    const client = (
      await t.admin('POST', `/projects/${String(project['id'])}/clients`, { name: 'c', scopes: ['phone'] })
    ).body as Json;
    expect(await tokenStatus(String(client['client_id']), String(client['client_secret']))).toBe(200);
    expect(await t.admin('POST', `/accounts/${String(account['id'])}/plan`, { plan: 'free' })).toMatchObject({
      body: { plan: 'free' },
    });
    await expect
      .poll(() => tokenStatus(String(client['client_id']), String(client['client_secret'])), { timeout: 10_000 })
      .toBe(400);
  });

  it('answers 404 for an unknown account and 400 for a bad plan, naming the field', async () => {
    expect(await t.admin('POST', '/accounts/acc_nope/plan', { plan: 'free' })).toMatchObject({ status: 404 });
    const account = (await t.admin('POST', '/accounts', { name: 'x', plan: 'free' })).body as Json;
    expect(await t.admin('POST', `/accounts/${String(account['id'])}/plan`, { plan: 'gold' })).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('plan: required, one of free, business, enterprise') },
    });
    expect(await t.admin('POST', '/accounts', { name: '', plan: 'free' })).toMatchObject({ status: 400 });
  });
});
