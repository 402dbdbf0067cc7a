import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { adminCommands } from './cli-runner.ts';

type Json = Record<string, unknown>;

/**
 * The introspection permission of the operator contract: `client create … --introspect` and
 * `client update ID --introspect|--no-introspect`, in-process against a real upstream.
 */
describe('tokengate admin: the introspection permission of a client', () => {
  let t: TestUpstream;
  let env: Record<string, string>;
  let projectId: string;
  beforeAll(async () => {
    t = await startTestUpstream();
    env = { ADMIN_URL: t.upstream.adminUrl, DATA_DIR: t.dataDir };
    const project = (await json(['project', 'create', '--name', 'Introspecting', '--plan', 'business'])) as Json;
    projectId = String(project['id']);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const { json, fails } = adminCommands(() => env);

  it('prints exactly the contract’s fields for a client created with --introspect', async () => {
    const created = await json([
      'client',
      'create',
      '--project',
      projectId,
      '--name',
      'resource server',
      '--scopes',
      'phone',
      '--introspect',
    ]);
    expect(created).toEqual({
      client_id: expect.stringMatching(/^cli_/),
      client_secret: expect.any(String),
      name: 'resource server',
      scopes: ['phone'],
      enabled: true,
      introspect: true,
    });
  });

  it('creates a client without the permission unless asked, and prints the contract’s fields unchanged', async () => {
    const created = (await json([
      'client',
      'create',
      '--project',
      projectId,
      '--name',
      'plain',
      '--scopes',
      'phone',
    ])) as Json;
    expect(Object.keys(created)).toEqual(['client_id', 'client_secret', 'name', 'scopes', 'enabled']);
    const listed = await t.admin('GET', `/projects/${projectId}/clients`);
    const plain = (listed.body as Json[]).find((c) => c['client_id'] === created['client_id']);
    expect(plain?.['introspect']).toBe(false);
  });

  it('grants and withdraws the permission with client update, and logs each in the account’s activity', async () => {
    const created = (await json([
      'client',
      'create',
      '--project',
      projectId,
      '--name',
      'later',
      '--scopes',
      'email',
    ])) as Json;
    const id = String(created['client_id']);
    expect(await json(['client', 'update', id, '--introspect'])).toEqual({ client_id: id, introspect: true });
    expect(await json(['client', 'update', id, '--no-introspect'])).toEqual({ client_id: id, introspect: false });
    const project = (await t.admin('GET', `/projects/${projectId}`)).body as Json;
    const activity = (await json(['account', 'activity', String(project['account_id'])])) as Json[];
    const actions = activity.filter((e) => e['target'] === id).map((e) => e['action']);
    expect(actions).toEqual(expect.arrayContaining(['client.introspect_on', 'client.introspect_off']));
  });

  it('refuses client update without exactly one of --introspect and --no-introspect, and an unknown client', async () => {
    const neither = await fails(['client', 'update', 'cli_x']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('give one of --introspect or --no-introspect');
    const both = await fails(['client', 'update', 'cli_x', '--introspect', '--no-introspect']);
    expect(both.stderr).toContain('give one of --introspect or --no-introspect');
    const unknown = await fails(['client', 'update', 'cli_doesnotexist', '--introspect']);
    expect(unknown.stderr).toContain('does not exist');
  });
});
