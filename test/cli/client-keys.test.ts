import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientKey, clientAssertion, clientKey, keySet } from '#test/client-keys.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { adminCommands, runCli } from './cli-runner.ts';

type Json = Record<string, unknown>;

/** private_key_jwt clients through the CLI (in-process), against a real upstream. */
describe('tokengate admin client create --auth private_key_jwt, client keys', () => {
  let t: TestUpstream;
  let env: Record<string, string>;
  let projectId: string;
  beforeAll(async () => {
    t = await startTestUpstream();
    env = { ADMIN_URL: t.upstream.adminUrl, DATA_DIR: t.dataDir };
    projectId = String(((await json(['project', 'create', '--name', 'Keys', '--plan', 'business'])) as Json)['id']);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const { json } = adminCommands(() => env);
  async function jwksFile(name: string, value: unknown): Promise<string> {
    const file = join(t.dataDir, name);
    await writeFile(file, JSON.stringify(value));
    return file;
  }
  /** The assertion's aud is the token endpoint as the metadata names it (PUBLIC_URL, not the upstream's address). */
  async function tokenStatus(key: ClientKey, clientId: string): Promise<number> {
    const metadata = await fetch(`${t.upstream.url}/.well-known/oauth-authorization-server`);
    const { token_endpoint: aud } = (await metadata.json()) as { token_endpoint: string };
    const assertion = await clientAssertion(key, clientId, aud, Math.floor(Date.now() / 1000));
    const res = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      }),
    });
    await res.body?.cancel();
    return res.status;
  }

  it('creates a client without a secret that gets tokens with its key, and replaces its keys at once', async () => {
    const [first, second] = await Promise.all([clientKey('ES256'), clientKey('EdDSA')]);
    const created = (await json([
      'client',
      'create',
      '--project',
      projectId,
      '--name',
      'signer',
      '--scopes',
      'email',
      '--auth',
      'private_key_jwt',
      '--jwks',
      await jwksFile('first.json', keySet(first)),
    ])) as Json;
    expect(Object.keys(created)).toEqual(['client_id', 'name', 'scopes', 'enabled', 'auth']);
    expect(created).toMatchObject({ name: 'signer', scopes: ['email'], enabled: true, auth: 'private_key_jwt' });
    const id = String(created['client_id']);
    expect(await tokenStatus(first, id)).toBe(200);

    const replaced = (await json([
      'client',
      'keys',
      id,
      '--jwks',
      await jwksFile('second.json', keySet(second)),
    ])) as Json;
    expect(replaced).toEqual({ client_id: id, auth: 'private_key_jwt', jwks: keySet(second) });
    expect(await tokenStatus(first, id)).toBe(401);
    expect(await tokenStatus(second, id)).toBe(200);
    const text = await runCli(['admin', 'client', 'keys', id, '--jwks', join(t.dataDir, 'second.json')], env);
    expect(text.stdout).toBe(`client ${id}: key set replaced (1 key)\n`);
  });

  it('creates a client that must use DPoP (--require-dpop), and the admin API turns it off', async () => {
    const args = ['client', 'create', '--project', projectId, '--name', 'bound', '--scopes', 'email', '--require-dpop'];
    const id = String(((await json(args)) as Json)['client_id']);
    const listed = (await t.admin('GET', `/projects/${projectId}/clients`)).body as Json[];
    expect(listed.find((c) => c['client_id'] === id)).toMatchObject({ require_dpop: true });
    const off = await t.admin('POST', `/clients/${id}/dpop`, { required: false });
    expect(off).toMatchObject({ status: 200, body: { client_id: id, require_dpop: false } });
    expect((await t.admin('POST', `/clients/${id}/dpop`, { required: 'yes' })).status).toBe(400);
    expect((await t.admin('POST', '/clients/cli_missing/dpop', { required: true })).status).toBe(404);
  });

  it('refuses --jwks without --auth private_key_jwt, an unreadable file and a file that is not JSON (exit 2)', async () => {
    const base = ['admin', 'client', 'create', '--project', projectId, '--name', 'x', '--scopes', 'email'];
    const cases: Array<[string[], string]> = [
      [[...base, '--jwks', 'f.json'], '--jwks FILE goes with --auth private_key_jwt'],
      [[...base, '--auth', 'private_key_jwt'], '--jwks FILE goes with --auth private_key_jwt'],
      [[...base, '--auth', 'magic'], '--auth: unknown method "magic"'],
      [[...base, '--auth', 'private_key_jwt', '--jwks', join(t.dataDir, 'missing.json')], 'cannot read'],
      [[...base, '--auth', 'private_key_jwt', '--jwks', join(t.dataDir, 'admin-token')], 'is not JSON'],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });

  it('fails (exit 1) with the admin API’s reason for a private key and for a secret client’s keys', async () => {
    const key = await clientKey('ES256');
    const { privateKey } = key;
    const { exportJWK } = await import('jose');
    const withPrivate = { keys: [{ ...(await exportJWK(privateKey)), kid: 'k' }] };
    const args = ['client', 'create', '--project', projectId, '--name', 'leaky', '--scopes', 'email', '--auth'];
    const leaky = await runCli(
      ['admin', ...args, 'private_key_jwt', '--jwks', await jwksFile('private.json', withPrivate)],
      env,
    );
    expect(leaky.code).toBe(1);
    expect(leaky.stderr).toContain('private key material');
    const secretClient = (await json([
      'client',
      'create',
      '--project',
      projectId,
      '--name',
      's',
      '--scopes',
      'email',
    ])) as Json;
    const keys = await runCli(
      ['admin', 'client', 'keys', String(secretClient['client_id']), '--jwks', await jwksFile('k.json', keySet(key))],
      env,
    );
    expect(keys.code).toBe(1);
    expect(keys.stderr).toContain('authenticates with a secret');
  });
});
