import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { type ReplicaPair, startReplicaPair } from '../upstream/replica-pair.ts';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { runCli } from './cli-runner.ts';
import { postgresTitle } from '#test/postgres-only.ts';

type Json = Record<string, unknown>;
const base = process.env.TEST_DATABASE_URL;

/**
 * `tokengate admin client dpop` (in-process) against one of two upstream replicas on one
 * PostgreSQL database: the other replica, which has the client cached, must apply the switch
 * to its next token request.
 */
describe.skipIf(!base)(postgresTitle('tokengate admin client dpop'), () => {
  let first: TestUpstream;
  let second: TestUpstream;
  let pair: ReplicaPair | undefined;
  let env: Record<string, string>;
  let projectId: string;
  let key: DpopKey;
  beforeAll(async () => {
    pair = await startReplicaPair(base as string);
    ({ first, second } = pair);
    env = { ADMIN_URL: first.upstream.adminUrl, DATA_DIR: first.dataDir };
    const project = await first.admin('POST', '/projects', { name: 'Bound', plan: 'business' });
    projectId = String((project.body as Json)['id']);
    key = await dpopKey('ES256');
  });
  afterAll(() => pair?.close());

  async function newClient(name: string): Promise<{ id: string; secret: string }> {
    const res = await first.admin('POST', `/projects/${projectId}/clients`, { name, scopes: ['email'] });
    expect(res.status).toBe(201);
    const body = res.body as Json;
    return { id: String(body['client_id']), secret: String(body['client_secret']) };
  }

  /** A client-credentials request to a replica, with a proof for its token endpoint or none. */
  async function tokenAt(t: TestUpstream, client: { id: string; secret: string }, withProof: boolean) {
    const metadata = await fetch(`${t.upstream.url}/.well-known/oauth-authorization-server`);
    const { token_endpoint: htu } = (await metadata.json()) as { token_endpoint: string };
    const headers: Record<string, string> = withProof ? { dpop: await dpopProof(key, 'POST', htu) } : {};
    const res = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      headers,
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.id,
        client_secret: client.secret,
      }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  it('requires DPoP at once on the other replica (--require), and allows Bearer again (--allow)', async () => {
    const client = await newClient('switched');
    // The second replica serves a Bearer token first, so it holds the client in its cache.
    expect((await tokenAt(second, client, false)).body['token_type']).toBe('Bearer');

    const on = await runCli(['admin', 'client', 'dpop', client.id, '--require', '--json'], env);
    expect(on).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ client_id: client.id, require_dpop: true })}\n`,
      stderr: '',
    });
    await vi.waitFor(
      async () =>
        expect(await tokenAt(second, client, false)).toEqual({
          status: 400,
          body: { error: 'invalid_dpop_proof', error_description: expect.any(String) },
        }),
      { timeout: 1_000, interval: 20 },
    );
    expect(await tokenAt(second, client, true)).toMatchObject({ status: 200, body: { token_type: 'DPoP' } });
    const listed = (await second.admin('GET', `/projects/${projectId}/clients`)).body as Json[];
    expect(listed.find((c) => c['client_id'] === client.id)).toMatchObject({ require_dpop: true });

    const off = await runCli(['admin', 'client', 'dpop', client.id, '--allow'], env);
    expect(off).toEqual({
      code: 0,
      stdout: `client ${client.id}: DPoP allowed, not required: it may get Bearer tokens again\n`,
      stderr: '',
    });
    await vi.waitFor(
      async () =>
        expect(await tokenAt(second, client, false)).toMatchObject({ status: 200, body: { token_type: 'Bearer' } }),
      { timeout: 1_000, interval: 20 },
    );
    const text = await runCli(['admin', 'client', 'dpop', client.id, '--require'], env);
    expect(text.stdout).toBe(`client ${client.id}: DPoP required: its token requests without a proof are refused\n`);
  });

  it('fails with exit 1 and the admin API’s reason for an unknown client, printing nothing on stdout', async () => {
    for (const json of [[], ['--json']]) {
      const result = await runCli(['admin', 'client', 'dpop', 'cli_0000000000000000000000', '--require', ...json], env);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^tokengate: admin API: .*cli_0000000000000000000000.*\(HTTP 404\)\n$/);
    }
  });

  it('refuses wrong usage with exit 2 before any request: no switch, both, no id, two ids, a mistyped option', async () => {
    const client = await newClient('untouched');
    const cases: Array<[string[], string]> = [
      [[client.id], 'give one of --require or --allow'],
      [[client.id, '--require', '--allow'], 'give one of --require or --allow'],
      [['--require'], 'expected exactly one client id'],
      [[client.id, client.id, '--allow'], 'expected exactly one client id'],
      [[client.id, '--required'], '--required'],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['admin', 'client', 'dpop', ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
    }
    const listed = (await first.admin('GET', `/projects/${projectId}/clients`)).body as Json[];
    expect(listed.find((c) => c['client_id'] === client.id)).toMatchObject({ require_dpop: false });
  });

  it('explains itself with --help: usage, both switches, and exit 0', async () => {
    const result = await runCli(['admin', 'client', 'dpop', '--help'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('usage: tokengate admin client dpop CLIENT_ID --require|--allow [--json]');
    expect(result.stdout).toMatch(/--require\s+refuse its token requests without a DPoP proof/);
    expect(result.stdout).toMatch(/--allow\s+accept them again/);
  });
});
