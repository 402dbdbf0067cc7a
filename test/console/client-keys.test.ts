import { exportJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey, keySet } from '#test/client-keys.ts';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { createProjectViaPortal, type PortalClient, startSignedInConsole } from './console-client.ts';

describe('console: a client registered with public keys (private_key_jwt)', () => {
  let t: TestUpstream;
  let c: PortalClient;
  let id: string;
  beforeAll(async () => {
    ({ t, c } = await startSignedInConsole());
    id = await createProjectViaPortal(c, 'Signers', 'business');
  });
  afterAll(async () => {
    await t?.destroy();
  });
  const tab = () => `/console/projects/${id}/credentials/oauth-clients`;
  const create = async (form: Record<string, string | string[]>) => {
    await c.get(`${tab()}/new`);
    return c.post(tab(), { scopes: ['email'], ...form });
  };

  it('offers the choice and a field for the key set, and creates a client without a secret', async () => {
    const form = await c.get(`${tab()}/new`);
    expect(form.text).toContain('Public keys (JWK set)');
    expect(form.text).toContain('value="private_key_jwt"');
    const jwks = JSON.stringify(keySet(await clientKey('ES256')));
    const res = await create({ name: 'signer', auth: 'private_key_jwt', jwks, require_dpop: '1' });
    expect(res.status).toBe(201);
    expect(res.text).toContain('it has no secret');
    expect(res.text).not.toContain('Client secret</');
    const list = await c.get(tab());
    expect(list.text).toMatch(/signer.*Private key \(private_key_jwt\), DPoP required/s);
  });

  it('shows a secret client as such', async () => {
    const res = await create({ name: 'classic' });
    expect(res.status).toBe(201);
    expect((await c.get(tab())).text).toMatch(/classic.*Client secret/s);
  });

  it('refuses a private key, text that is not JSON and a missing key set, keeping the form', async () => {
    const key = await clientKey('ES256');
    const leaked = JSON.stringify({ keys: [{ ...(await exportJWK(key.privateKey)), kid: 'k' }] });
    const cases: Array<[string, string]> = [
      [leaked, 'Public keys: a key holds private key material'],
      ['not json', 'Public keys: required, a JWK set'],
      ['', 'Public keys: required'],
    ];
    for (const [jwks, message] of cases) {
      const res = await create({ name: 'bad', auth: 'private_key_jwt', jwks });
      expect(res.status).toBe(400);
      expect(res.text).toContain(message);
      expect(res.text).toContain('value="private_key_jwt" checked');
    }
  });

  it('lets the operator replace a client’s keys and require DPoP on its page, logged as the operator', async () => {
    const first = await clientKey('ES256');
    const made = await create({ name: 'rotating', auth: 'private_key_jwt', jwks: JSON.stringify(keySet(first)) });
    const clientId = /<code id="client-id">([^<]+)<\/code>/.exec(made.text)?.[1] ?? '';
    const page = `/console/projects/${id}/oauth-clients/${clientId}`;
    const second = await clientKey('PS256');
    await c.get(page);
    const replaced = await c.follow(await c.post(`${page}/keys`, { jwks: JSON.stringify(keySet(first, second)) }));
    expect(replaced.text).toContain('Public keys of “rotating” replaced: 2 keys now.');
    expect(replaced.text).toContain(`<code>${second.kid}</code>`);
    const required = await c.follow(await c.post(`${page}/dpop`, { required: '1' }));
    expect(required.text).toContain('<dt>DPoP</dt><dd>Required</dd>');
    expect((await c.get(tab())).text).toMatch(/rotating.*Private key \(private_key_jwt\), DPoP required/s);

    const project = (await t.admin('GET', `/projects/${id}`)).body as Record<string, unknown>;
    const log = (await t.admin('GET', `/accounts/${String(project['account_id'])}/activity`)).body as Array<
      Record<string, unknown>
    >;
    const mine = log.filter((e) => e['target'] === clientId).map((e) => [e['action'], e['actor']]);
    expect(mine).toEqual([
      ['client.dpop_on', 'operator'],
      ['client.keys', 'operator'],
      ['client.create', 'operator'],
    ]);
  });
});
