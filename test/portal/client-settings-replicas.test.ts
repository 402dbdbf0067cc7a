import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientKey, clientAssertion, clientKey, keySet } from '#test/client-keys.ts';
import { until } from '#test/until.ts';
import { temporaryDatabase } from '../e2e/support.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { createAccount, member, type PeopleClient } from './people-client.ts';
import { postgresTitle } from '#test/postgres-only.ts';

type Json = Record<string, unknown>;
const base = process.env.TEST_DATABASE_URL;

/**
 * Two upstream replicas on one PostgreSQL: a change a person makes on a client's page through
 * one replica counts on the other, whose view of the client was warm from a request just before:
 * a replaced key set at the very next token request (keys are read fresh), a DPoP requirement
 * within a second (the cached record goes when the store's notification arrives).
 */
describe.skipIf(!base)(postgresTitle('client settings across replicas'), () => {
  const cleanups: Array<() => Promise<void>> = [];
  let a: TestUpstream;
  let b: TestUpstream;
  let dev: PeopleClient;
  let projectId = '';
  let aud = '';

  beforeAll(async () => {
    const db = await temporaryDatabase(base!);
    cleanups.push(db.drop);
    a = await startTestUpstream({ routes: [], env: { DATABASE_URL: db.url } });
    cleanups.push(() => a.destroy());
    b = await startTestUpstream({ routes: [], env: { DATABASE_URL: db.url } });
    cleanups.push(() => b.destroy());
    const account = await createAccount(a, 'Replicated');
    dev = await member(a, account, 'dev@replicated.example', 'developer');
    projectId = String(
      ((await a.admin('POST', `/accounts/${account.id}/projects`, { name: 'api' })).body as Json)['id'],
    );
    const metadata = await fetch(`${b.upstream.url}/.well-known/oauth-authorization-server`);
    aud = ((await metadata.json()) as { token_endpoint: string }).token_endpoint;
  }, 60_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const page = (clientId: string) => `/portal/projects/${projectId}/oauth-clients/${clientId}`;

  async function tokenAtB(form: Record<string, string>): Promise<{ status: number; json: Json }> {
    const res = await fetch(`${b.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', ...form }),
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  const assertion = async (key: ClientKey, clientId: string) => ({
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: await clientAssertion(key, clientId, aud, Math.floor(Date.now() / 1000)),
  });

  it('refuses the removed key on the other replica at once after a person replaces the set', async () => {
    const [oldKey, newKey] = [await clientKey('ES256'), await clientKey('ES256')];
    const made = await a.admin('POST', `/projects/${projectId}/clients`, {
      name: 'signer',
      scopes: ['email'],
      auth: 'private_key_jwt',
      jwks: keySet(oldKey),
    });
    const clientId = String((made.body as Json)['client_id']);
    expect((await tokenAtB(await assertion(oldKey, clientId))).status).toBe(200);

    await dev.get(page(clientId));
    expect((await dev.post(`${page(clientId)}/keys`, { jwks: JSON.stringify(keySet(newKey)) })).status).toBe(303);
    expect(await tokenAtB(await assertion(oldKey, clientId))).toMatchObject({
      status: 401,
      json: { error: 'invalid_client' },
    });
    expect((await tokenAtB(await assertion(newKey, clientId))).status).toBe(200);
  });

  it('refuses a bearer request on the other replica within a second after a person requires DPoP', async () => {
    const made = (await a.admin('POST', `/projects/${projectId}/clients`, { name: 'classic', scopes: ['email'] }))
      .body as Json;
    const credentials = { client_id: String(made['client_id']), client_secret: String(made['client_secret']) };
    expect((await tokenAtB(credentials)).status).toBe(200);

    await dev.get(page(credentials.client_id));
    expect((await dev.post(`${page(credentials.client_id)}/dpop`, { required: '1' })).status).toBe(303);
    // B's cached record is dropped when PostgreSQL's NOTIFY reaches it, which can come after the
    // next request on a loaded machine: the promise is every replica within a second.
    let answer = await tokenAtB(credentials);
    await until(
      async () => {
        if (answer.status === 200) answer = await tokenAtB(credentials);
        return answer.status !== 200;
      },
      'replica B refuses the bearer request',
      { timeoutMs: 1_000, intervalMs: 20 },
    );
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_dpop_proof' } });
  });
});
