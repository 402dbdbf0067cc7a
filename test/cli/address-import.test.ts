import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { runCli } from './cli-runner.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'gnaf');

describe('tokengate admin address import', () => {
  let t: TestUpstream;
  let env: Record<string, string>;
  let keyQuery: string;
  beforeAll(async () => {
    t = await startTestUpstream();
    env = { ADMIN_URL: t.upstream.adminUrl, DATA_DIR: t.dataDir };
    const project = (await t.admin('POST', '/projects', { name: 'addr', plan: 'free' })).body as { id: string };
    const apiKey = (await t.admin('POST', `/projects/${project.id}/apikeys`)).body as { key: string; secret: string };
    keyQuery = `key=${apiKey.key}&secret=${apiKey.secret}`;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('imports a G-NAF directory with a progress bar on stderr and the running upstream serves it at once', async () => {
    const result = await runCli(['admin', 'address', 'import', '--gnaf', FIXTURE, '--json'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\[#{30}\] 100% writing\s+11 addresses/);
    expect(JSON.parse(result.stdout)).toMatchObject({ addresses: 11, served: true });
    const res = await fetch(
      `${t.upstream.url}/api/au/address/autocomplete?q=${encodeURIComponent('2/21 kent rd dapto')}&${keyQuery}`,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ completions: [{ full_address: 'Unit 2, 21 Kent Road, DAPTO NSW 2530' }] });
  });

  it('fails with a clear message and keeps the served data set when the directory is not G-NAF', async () => {
    const result = await runCli(['admin', 'address', 'import', '--gnaf', join(t.dataDir, 'missing'), '--json'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('address import failed (the previous data set stays live)');
    const res = await fetch(
      `${t.upstream.url}/api/au/address/autocomplete?q=${encodeURIComponent('2/21 kent rd dapto')}&${keyQuery}`,
    );
    expect(await res.json()).toMatchObject({ completions: [{ full_address: 'Unit 2, 21 Kent Road, DAPTO NSW 2530' }] });
  });
});
