import { exportJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientKey, clientAssertion, clientKey, keySet } from '#test/client-keys.ts';
import { dpopKey, dpopProof } from '#test/dpop.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, member, type PeopleClient, type TestAccount } from './people-client.ts';

type Json = Record<string, unknown>;

/**
 * A client's own page in the account portal: its public keys replaced by pasting a new JWK set
 * (checked as at creation) and DPoP required or not, each at once at the token endpoint and in
 * the account's activity; a viewer only looks, another account's person finds nothing.
 */
describe('account portal: a client’s keys and DPoP on its own page', () => {
  let t: TestUpstream;
  let signers: TestAccount;
  let dev: PeopleClient;
  let viewer: PeopleClient;
  let stranger: PeopleClient;
  let projectId = '';
  let strangerProject = '';
  let keyClient = '';
  let secretClient = '';
  let secret = '';
  let oldKey: ClientKey;
  let newKey: ClientKey;
  let tokenEndpoint = '';
  const page = (clientId: string) => `/portal/projects/${projectId}/oauth-clients/${clientId}`;

  beforeAll(async () => {
    t = await startTestUpstream({ routes: [] });
    signers = await createAccount(t, 'Signers');
    dev = await member(t, signers, 'dev@signers.example', 'developer');
    viewer = await member(t, signers, 'viewer@signers.example', 'viewer');
    const others = await createAccount(t, 'Others');
    stranger = await member(t, others, 'owner@others.example', 'owner');
    const project = async (accountId: string, name: string) =>
      String(((await t.admin('POST', `/accounts/${accountId}/projects`, { name })).body as Json)['id']);
    projectId = await project(signers.id, 'api');
    strangerProject = await project(others.id, 'theirs');
    oldKey = await clientKey('ES256');
    newKey = await clientKey('EdDSA');
    const made = await t.admin('POST', `/projects/${projectId}/clients`, {
      name: 'signer',
      scopes: ['email'],
      auth: 'private_key_jwt',
      jwks: keySet(oldKey),
    });
    keyClient = String((made.body as Json)['client_id']);
    const classic = (await t.admin('POST', `/projects/${projectId}/clients`, { name: 'classic', scopes: ['email'] }))
      .body as Json;
    secretClient = String(classic['client_id']);
    secret = String(classic['client_secret']);
    const metadata = await fetch(`${t.upstream.url}/.well-known/oauth-authorization-server`);
    tokenEndpoint = ((await metadata.json()) as { token_endpoint: string }).token_endpoint;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  async function assertionToken(key: ClientKey): Promise<{ status: number; json: Json }> {
    const res = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await clientAssertion(key, keyClient, tokenEndpoint, Math.floor(Date.now() / 1000)),
      }),
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  async function secretToken(proof?: string): Promise<{ status: number; json: Json }> {
    const res = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      headers: proof ? { dpop: proof } : {},
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: secretClient, client_secret: secret }),
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  async function stored(clientId: string): Promise<Json> {
    const clients = (await t.admin('GET', `/projects/${projectId}/clients`)).body as Json[];
    return clients.find((client) => client['client_id'] === clientId) ?? {};
  }

  async function activity(action: string): Promise<Json[]> {
    const entries = (await t.admin('GET', `/accounts/${signers.id}/activity`)).body as Json[];
    return entries.filter((entry) => entry['action'] === action);
  }

  /** Opens the client's page (its CSRF token) and posts the new key set, as a person does. */
  async function replaceKeys(c: PeopleClient, jwks: string) {
    await c.get(page(keyClient));
    return c.post(`${page(keyClient)}/keys`, { jwks });
  }

  it('lets a developer rotate the keys: old and new together, then the new alone, each at once at the token endpoint', async () => {
    const shown = await dev.get(page(keyClient));
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`<code>${oldKey.kid}</code>`);
    expect(shown.text).toContain('<label for="client-jwks">New public keys (JWK set)</label>');

    const both = await replaceKeys(dev, JSON.stringify(keySet(oldKey, newKey), null, 2));
    expect(both.status).toBe(303);
    const after = await dev.follow(both);
    expect(after.text).toContain('Public keys of “signer” replaced: 2 keys now.');
    expect(after.text).toContain(`<code>${newKey.kid}</code>`);
    expect((await assertionToken(oldKey)).status).toBe(200);
    expect((await assertionToken(newKey)).status).toBe(200);

    expect((await replaceKeys(dev, JSON.stringify(keySet(newKey)))).status).toBe(303);
    expect((await stored(keyClient))['jwks']).toEqual(keySet(newKey));
    expect((await assertionToken(newKey)).status).toBe(200);
    const removed = await assertionToken(oldKey);
    expect(removed.status).toBe(401);
    expect(removed.json['error']).toBe('invalid_client');

    const logged = await activity('client.keys');
    expect(logged.map((e) => [e['actor'], e['target']])).toEqual([
      ['dev@signers.example', keyClient],
      ['dev@signers.example', keyClient],
    ]);
  });

  const badSets = async (): Promise<Array<[string, string, string]>> => {
    const signing = await clientKey('ES256', 'pair');
    const privateJwk = { ...(await exportJWK(signing.privateKey)), kid: 'pair' };
    return [
      ['not JSON', '{"keys": [ oops', 'Public keys: the text is not JSON.'],
      ['a private key', JSON.stringify({ keys: [privateJwk] }), 'Public keys: a key holds private key material'],
      ['no keys', '{"keys": []}', 'Public keys: required, a JWK set {&quot;keys&quot;: [...]} of 1-10'],
      [
        'a symmetric key',
        JSON.stringify({ keys: [{ kty: 'oct', kid: 'shared', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' }] }),
        'Public keys: a key holds private key material',
      ],
      ['nothing', '   ', 'Public keys: paste the JWK set'],
    ];
  };

  it('refuses a bad key set with its reason on the page, keeps the pasted text, and changes nothing', async () => {
    const before = await stored(keyClient);
    const logged = (await activity('client.keys')).length;
    for (const [what, jwks, reason] of await badSets()) {
      const res = await replaceKeys(dev, jwks);
      expect({ what, status: res.status }).toEqual({ what, status: 400 });
      expect(res.text).toContain('<h2>There is a problem</h2>');
      expect(res.text).toContain(reason);
      expect(res.text).not.toMatch(/\bat [\w.]+ \(|Error:|ZodError/);
      if (what === 'not JSON') expect(res.text).toContain('{&quot;keys&quot;: [ oops</textarea>');
    }
    expect(await stored(keyClient)).toEqual(before);
    expect((await activity('client.keys')).length).toBe(logged);
  });

  it('makes a client require DPoP and allow bearer again, shown in the list and logged', async () => {
    const tab = `/portal/projects/${projectId}/credentials/oauth-clients`;
    const row = async () => {
      const rows = (await dev.get(tab)).text.match(/<tr>.*?<\/tr>/gs) ?? [];
      return rows.find((r) => r.includes('<span class="cell">classic</span></th>')) ?? '';
    };
    expect(await row()).toContain(`href="${page(secretClient)}"`);
    expect(await row()).not.toContain('DPoP required');

    await dev.get(page(secretClient));
    const on = await dev.post(`${page(secretClient)}/dpop`, { required: '1' });
    expect(on.status).toBe(303);
    expect((await dev.follow(on)).text).toContain('<dt>DPoP</dt><dd>Required</dd>');
    expect(await row()).toContain('Client secret, DPoP required');
    const bearer = await secretToken();
    expect(bearer).toMatchObject({ status: 400, json: { error: 'invalid_dpop_proof' } });
    const key = await dpopKey();
    const bound = await secretToken(await dpopProof(key, 'POST', tokenEndpoint));
    expect(bound).toMatchObject({ status: 200, json: { token_type: 'DPoP' } });

    await dev.get(page(secretClient));
    expect((await dev.post(`${page(secretClient)}/dpop`, { required: '0' })).status).toBe(303);
    expect(await row()).not.toContain('DPoP required');
    expect(await secretToken()).toMatchObject({ status: 200, json: { token_type: 'Bearer' } });

    const entries = [...(await activity('client.dpop_on')), ...(await activity('client.dpop_off'))];
    expect(entries.map((e) => [e['action'], e['actor'], e['target']])).toEqual([
      ['client.dpop_on', 'dev@signers.example', secretClient],
      ['client.dpop_off', 'dev@signers.example', secretClient],
    ]);
  });

  it('shows a viewer the keys and DPoP without forms, and refuses forged posts with 403', async () => {
    const before = await stored(keyClient);
    const shown = await viewer.get(page(keyClient));
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`<code>${newKey.kid}</code>`);
    expect(shown.text).not.toContain('name="jwks"');
    expect(shown.text).not.toContain('Require DPoP');
    const forged = await viewer.post(`${page(keyClient)}/keys`, { jwks: JSON.stringify(keySet(oldKey)) });
    expect(forged.status).toBe(403);
    expect((await viewer.post(`${page(keyClient)}/dpop`, { required: '1' })).status).toBe(403);
    expect(await stored(keyClient)).toEqual(before);
  });

  it('answers another account’s person 404 on the page and on forged posts, by either project', async () => {
    const before = await stored(keyClient);
    // Their own client's page answers them: the 404s below are the other account's, not a missing page.
    const theirs = (await t.admin('POST', `/projects/${strangerProject}/clients`, { name: 'own', scopes: ['email'] }))
      .body as Json;
    const own = await stranger.get(`/portal/projects/${strangerProject}/oauth-clients/${String(theirs['client_id'])}`);
    expect(own.status).toBe(200);
    for (const base of [page(keyClient), `/portal/projects/${strangerProject}/oauth-clients/${keyClient}`]) {
      const shown = await stranger.get(base);
      expect({ base, status: shown.status }).toEqual({ base, status: 404 });
      expect(shown.text).not.toContain('signer');
      const keys = await stranger.post(`${base}/keys`, { jwks: JSON.stringify(keySet(oldKey)) });
      expect({ base, status: keys.status }).toEqual({ base, status: 404 });
      const dpop = await stranger.post(`${base}/dpop`, { required: '1' });
      expect({ base, status: dpop.status }).toEqual({ base, status: 404 });
    }
    expect(await stored(keyClient)).toEqual(before);
  });
});
