import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { runCli } from './cli-runner.ts';

const TAKEN = (name: string) =>
  `name: a client named ${JSON.stringify(name)} already exists in this project (names are compared ignoring case)`;

describe('a second client of the same name in one project', () => {
  let t: TestUpstream;
  let env: Record<string, string>;
  let projectId: string;
  beforeAll(async () => {
    t = await startTestUpstream();
    env = { ADMIN_URL: t.upstream.adminUrl, DATA_DIR: t.dataDir };
    projectId = ((await t.admin('POST', '/projects', { name: 'names', plan: 'business' })).body as { id: string }).id;
    expect(
      (await t.admin('POST', `/projects/${projectId}/clients`, { name: 'Billing', scopes: ['email'] })).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('is refused by the admin API with 409 naming the name, whatever its case and surrounding spaces', async () => {
    const again = await t.admin('POST', `/projects/${projectId}/clients`, { name: ' billing ', scopes: ['phone'] });
    expect(again).toMatchObject({
      status: 409,
      body: { message: TAKEN('billing'), error_code: '1000', success: false },
    });
    const clients = (await t.admin('GET', `/projects/${projectId}/clients`)).body as Array<{ name: string }>;
    expect(clients.map((c) => c.name)).toEqual(['Billing']);
  });

  it('makes tokengate admin client create exit 1 with that message on stderr and nothing on stdout', async () => {
    const args = ['admin', 'client', 'create', '--project', projectId, '--name', 'BILLING', '--scopes', 'email'];
    for (const json of [[], ['--json']]) {
      const result = await runCli([...args, ...json], env);
      expect(result).toEqual({ code: 1, stdout: '', stderr: `tokengate: admin API: ${TAKEN('BILLING')} (HTTP 409)\n` });
    }
  });
});
