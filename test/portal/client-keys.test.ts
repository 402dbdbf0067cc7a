import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientKey, clientAssertion, clientKey, keySet } from '#test/client-keys.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, member, type PeopleClient } from './people-client.ts';

type Json = Record<string, unknown>;

/**
 * The account portal (`/portal`, a person of the account, not the operator's console): a
 * client registered by pasting its public JWK set, never asked for nor shown a secret, and the
 * authentication method of every client in the list.
 */
describe('account portal: a client registered with public keys (private_key_jwt)', () => {
  let t: TestUpstream;
  let c: PeopleClient;
  let projectId = '';
  let tab = '';
  let key: ClientKey;
  beforeAll(async () => {
    t = await startTestUpstream({ routes: [] });
    const account = await createAccount(t, 'Signers');
    c = await member(t, account, 'dev@signers.example', 'developer');
    const project = (await t.admin('POST', `/accounts/${account.id}/projects`, { name: 'api' })).body as Json;
    projectId = String(project['id']);
    tab = `/portal/projects/${projectId}/credentials/oauth-clients`;
    key = await clientKey('ES256');
  });
  afterAll(async () => {
    await t?.destroy();
  });

  /** The list's row of the client named, as text without tags. */
  async function rowOf(name: string): Promise<string> {
    const rows = (await c.get(tab)).text.match(/<tr>.*?<\/tr>/gs) ?? [];
    const row = rows.find((r) => r.includes(`<span class="cell">${name}</span></th>`)) ?? '';
    return row
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  }

  /** Opens the form (its CSRF token) and posts it, as a person does. */
  async function create(form: Record<string, string | string[]>) {
    await c.get(`${tab}/new`);
    return c.post(tab, { scopes: ['email'], ...form });
  }

  async function tokenStatus(clientId: string): Promise<number> {
    const metadata = await fetch(`${t.upstream.url}/.well-known/oauth-authorization-server`);
    const { token_endpoint: aud } = (await metadata.json()) as { token_endpoint: string };
    const res = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await clientAssertion(key, clientId, aud, Math.floor(Date.now() / 1000)),
      }),
    });
    await res.body?.cancel();
    return res.status;
  }

  it('takes a pasted JWK set and creates a client that has no secret and gets tokens with its key', async () => {
    const form = await c.get(`${tab}/new`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="client-jwks">Public keys (JWK set)</label>');
    expect(form.text).toContain('<textarea id="client-jwks" name="jwks"');
    // Nothing on the form asks a person for a secret: the only secret is one the service makes.
    expect(form.text).not.toMatch(/<(input|textarea)[^>]*name="[^"]*secret/i);

    // Pasted as a person copies it from a file: pretty-printed, with a trailing newline.
    const jwks = `${JSON.stringify(keySet(key), null, 2)}\n`;
    const res = await create({ name: 'signer', auth: 'private_key_jwt', jwks });
    expect(res.status).toBe(201);
    expect(res.text).toContain('it has no secret');
    expect(res.text).not.toContain('id="client-secret"');
    const clientId = /<code id="client-id">([^<]+)<\/code>/.exec(res.text)?.[1] ?? '';
    expect(clientId).toMatch(/^cli_/);

    const clients = (await t.admin('GET', `/projects/${projectId}/clients`)).body as Json[];
    const stored = clients.find((client) => client['client_id'] === clientId);
    expect(stored).toMatchObject({ auth: 'private_key_jwt', jwks: keySet(key) });
    expect(await tokenStatus(clientId)).toBe(200);
  });

  it('shows each client’s authentication method in the list', async () => {
    expect((await create({ name: 'classic' })).status).toBe(201);
    const jwks = JSON.stringify(keySet(await clientKey('EdDSA')));
    expect((await create({ name: 'bound', auth: 'private_key_jwt', jwks, require_dpop: '1' })).status).toBe(201);
    expect(await rowOf('signer')).toContain('Private key (private_key_jwt)');
    expect(await rowOf('signer')).not.toContain('DPoP');
    expect(await rowOf('classic')).toContain('Client secret');
    expect(await rowOf('bound')).toContain('Private key (private_key_jwt), DPoP required');
  });
});
