import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-runner.ts';
import { temporaryDatabase } from '../e2e/support.ts';
import { createAccount, member, PASSWORD, PeopleClient, type TestAccount } from '../portal/people-client.ts';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

type Json = Record<string, unknown>;

const pgBase = process.env.TEST_DATABASE_URL;
const PHONE_CALL = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
const LOOPBACK = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;

/**
 * The account activity log end to end: changes made by the operator (admin API) and by a person
 * (portal), exported by `tokengate admin account activity ID --json` as a child process.
 */
for (const backend of ['embedded', 'postgres'] as const) {
  describe.skipIf(backend === 'postgres' && !pgBase)(`account activity (${backend} store)`, () => {
    let t: TestUpstream;
    let env: Record<string, string>;
    let acme: TestAccount;
    let drop: (() => Promise<void>) | undefined;
    const secrets: string[] = [];
    let project = '';
    let client = '';
    let apiKey = '';

    beforeAll(async () => {
      let upstreamEnv: Record<string, string> = {};
      if (backend === 'postgres') {
        const db = await temporaryDatabase(pgBase!);
        drop = db.drop;
        upstreamEnv = { DATABASE_URL: db.url };
      }
      t = await startTestUpstream({ env: upstreamEnv });
      env = { ADMIN_URL: t.upstream.adminUrl, DATA_DIR: t.dataDir };
      acme = await createAccount(t, 'Acme');
      project = String(((await t.admin('POST', `/accounts/${acme.id}/projects`, { name: 'web' })).body as Json)['id']);
      const created = (await t.admin('POST', `/projects/${project}/clients`, { name: 'svc', scopes: ['email'] }))
        .body as Json;
      client = String(created['client_id']);
      secrets.push(String(created['client_secret']));
      const key = (await t.admin('POST', `/projects/${project}/apikeys`)).body as Json;
      apiKey = String(key['key']);
      secrets.push(String(key['secret']));
      const token = await clientCredentialsToken(t.upstream.url, client, String(created['client_secret']));
      secrets.push(token);
      expect((await t.admin('POST', '/tokens/revoke', { token })).status).toBe(200);
      expect((await t.admin('POST', `/accounts/${acme.id}/plan`, { plan: 'enterprise' })).status).toBe(200);
    });
    afterAll(async () => {
      await t?.destroy();
      await drop?.();
    });

    const activity = async (id: string): Promise<Json[]> => {
      const result = await runCli(['admin', 'account', 'activity', id, '--json'], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      for (const secret of secrets) expect(result.stdout).not.toContain(secret);
      expect(result.stdout).not.toContain(PASSWORD);
      return JSON.parse(result.stdout) as Json[];
    };

    it('prints [{at, actor, action, target, address}], newest first, for the operator’s changes', async () => {
      const entries = await activity(acme.id);
      for (const entry of entries) {
        expect(Object.keys(entry)).toEqual(['at', 'actor', 'action', 'target', 'address']);
        expect(new Date(String(entry['at'])).toISOString()).toBe(entry['at']);
        expect(entry['actor']).toBe('operator');
        expect(entry['address']).toMatch(LOOPBACK);
      }
      expect(entries.map((e) => [e['action'], e['target']])).toEqual([
        ['plan.enterprise', acme.id],
        ['token.revoke', expect.any(String)],
        ['api_key.create', apiKey],
        ['client.create', client],
        ['project.create', project],
      ]);
      const ats = entries.map((e) => String(e['at']));
      expect([...ats].sort().reverse()).toEqual(ats);
    });

    it('records a person’s sign-ins and changes under their email, and shows the log to owners only', async () => {
      const owner = await member(t, acme, 'owner@acme.example', 'owner');
      const viewer = await member(t, acme, 'viewer@acme.example', 'viewer');
      const stranger = new PeopleClient(t.upstream.adminUrl);
      expect((await stranger.signInAs('owner@acme.example', 'wrong password entirely')).status).toBe(401);
      const again = new PeopleClient(t.upstream.adminUrl);
      expect((await again.signInAs('owner@acme.example', PASSWORD)).status).toBe(303);
      await owner.get(`/portal/projects/${project}/credentials/oauth-clients`);
      expect((await owner.post(`/portal/projects/${project}/oauth-clients/${client}/disable`, {})).status).toBe(303);

      const entries = await activity(acme.id);
      const byOwner = entries.filter((e) => e['actor'] === 'owner@acme.example').map((e) => e['action']);
      expect(byOwner).toEqual(expect.arrayContaining(['client.disable', 'sign_in.success', 'sign_in.failure']));
      expect(entries[0]).toMatchObject({ actor: 'owner@acme.example', action: 'client.disable', target: client });
      expect(entries[0]?.['address']).toMatch(LOOPBACK);
      expect(entries.filter((e) => e['action'] === 'invitation.create').map((e) => e['target'])).toEqual([
        'viewer@acme.example',
        'owner@acme.example',
      ]);

      const page = await owner.get('/portal/activity');
      expect(page.status).toBe(200);
      expect(page.text).toContain('client.disable');
      const hidden = await viewer.get('/portal/activity');
      expect(hidden.status).toBe(200);
      expect(hidden.text).not.toContain('client.disable');
      expect(hidden.text).toContain('Only an owner of Acme sees its activity.');
    });

    it('records each client and API key change a developer makes in the portal, deletion included, newest first', async () => {
      const dev = await member(t, acme, 'dev@acme.example', 'developer');
      await dev.get(`/portal/projects/${project}/credentials/oauth-clients/new`);
      const made = await dev.post(`/portal/projects/${project}/credentials/oauth-clients`, {
        name: 'portal-made',
        scopes: 'phone',
      });
      expect(made.status).toBe(201);
      const madeId = /id="client-id">([^<]+)</.exec(made.text)?.[1] ?? '';
      const madeSecret = /id="client-secret"[^>]* value="([^"]+)"/.exec(made.text)?.[1] ?? 'no secret shown';
      secrets.push(madeSecret);
      for (const step of ['disable', 'enable'])
        expect((await dev.post(`/portal/projects/${project}/oauth-clients/${madeId}/${step}`)).status).toBe(303);
      const token = await clientCredentialsToken(t.upstream.url, madeId, madeSecret);
      secrets.push(token);
      const bearerCall = () =>
        fetch(`${t.upstream.url}${PHONE_CALL}`, { headers: { authorization: `Bearer ${token}` } });
      expect((await bearerCall()).status).toBe(200);
      const confirmClient = await dev.get(`/portal/projects/${project}/oauth-clients/${madeId}/delete`);
      expect(confirmClient.text).toContain('Deleting revokes every outstanding access token of this client');
      expect((await dev.post(`/portal/projects/${project}/oauth-clients/${madeId}/delete`)).status).toBe(303);
      expect((await bearerCall()).status).toBe(401);
      await expect(clientCredentialsToken(t.upstream.url, madeId, madeSecret)).rejects.toThrow(/invalid_client/);
      expect((await dev.get(`/portal/projects/${project}/credentials/oauth-clients`)).text).not.toContain(madeId);
      await dev.get(`/portal/projects/${project}/credentials/api-keys`);
      const key = await dev.post(`/portal/projects/${project}/credentials/api-keys`);
      expect(key.status).toBe(201);
      const keyId = /id="api-key">([^<]+)</.exec(key.text)?.[1] ?? '';
      const keySecret = /id="api-secret"[^>]* value="([^"]+)"/.exec(key.text)?.[1] ?? 'no secret shown';
      secrets.push(keySecret);
      const call = () =>
        fetch(`${t.upstream.url}${PHONE_CALL}&${new URLSearchParams({ key: keyId, secret: keySecret })}`);
      expect((await call()).status).toBe(200);
      const confirmDisable = await dev.get(`/portal/projects/${project}/api-keys/${keyId}/disable`);
      expect(confirmDisable.text).toContain(
        'Calls with this key and its secret are refused from the moment it is disabled',
      );
      expect((await dev.post(`/portal/projects/${project}/api-keys/${keyId}/disable`)).status).toBe(303);
      expect((await call()).status).toBe(401);
      const listed = await dev.get(`/portal/projects/${project}/credentials/api-keys`);
      expect(listed.text).toContain(`API key ${keyId} disabled; its calls are refused until you enable it.`);
      expect(listed.text).toContain(`action="/portal/projects/${project}/api-keys/${keyId}/enable"`);
      expect((await dev.post(`/portal/projects/${project}/api-keys/${keyId}/enable`)).status).toBe(303);
      expect((await call()).status).toBe(200);
      const confirm = await dev.get(`/portal/projects/${project}/api-keys/${keyId}/delete`);
      expect(confirm.text).toContain('Calls with this key and its secret are refused');
      expect((await dev.post(`/portal/projects/${project}/api-keys/${keyId}/delete`)).status).toBe(303);
      expect((await call()).status).toBe(401);

      const entries = (await activity(acme.id)).filter((e) => e['actor'] === 'dev@acme.example');
      expect(entries.map((e) => [e['action'], e['target']])).toEqual([
        ['api_key.delete', keyId],
        ['api_key.enable', keyId],
        ['api_key.disable', keyId],
        ['api_key.create', keyId],
        ['client.delete', madeId],
        ['client.enable', madeId],
        ['client.disable', madeId],
        ['client.create', madeId],
        ['invitation.accept', expect.stringMatching(/^usr_/)],
      ]);
      for (const entry of entries) expect(entry['address']).toMatch(LOOPBACK);
    });

    it('records the operator disabling and enabling an API key, through the CLI and the admin API', async () => {
      const off = await runCli(['admin', 'apikey', 'disable', apiKey, '--json'], env);
      expect(off).toEqual({ code: 0, stdout: `${JSON.stringify({ key: apiKey, enabled: false })}\n`, stderr: '' });
      expect((await t.admin('POST', `/apikeys/${apiKey}/enable`)).body).toEqual({ key: apiKey, enabled: true });
      const entries = await activity(acme.id);
      expect(entries.slice(0, 2)).toEqual([
        {
          at: expect.any(String),
          actor: 'operator',
          action: 'api_key.enable',
          target: apiKey,
          address: expect.stringMatching(LOOPBACK),
        },
        {
          at: expect.any(String),
          actor: 'operator',
          action: 'api_key.disable',
          target: apiKey,
          address: expect.stringMatching(LOOPBACK),
        },
      ]);
    });

    it('answers 404 for an unknown account, from the admin API and the CLI', async () => {
      expect((await t.admin('GET', '/accounts/acc_missing/activity')).status).toBe(404);
      const result = await runCli(['admin', 'account', 'activity', 'acc_missing', '--json'], env);
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('account "acc_missing" does not exist (HTTP 404)');
    });
  });
}
