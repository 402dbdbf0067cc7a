import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-runner.ts';

/** What every command prints for the file below: the problem with its path and line. */
const PROBLEM = 'routes[0].scopes[0]: unknown scope "adress" (line 4)';

describe('an invalid configuration', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tokengate-exit-status-'));
    file = join(dir, 'gateway.yaml');
    await writeFile(file, 'routes:\n  - path: /x\n    auth: bearer\n    scopes: [adress]\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('exits 2 from tokengate check-config, tokengate gateway and tokengate start alike, naming the problem', {
    timeout: 120_000,
  }, async () => {
    const env = {
      GATEWAY_CONFIG: file,
      DATA_DIR: join(dir, 'data'),
      UPSTREAM_PORT: '0',
      ADMIN_PORT: '0',
      GATEWAY_PORT: '0',
      LOG_LEVEL: 'silent',
    };
    const results = {
      'check-config': await runCli(['check-config', file], env),
      gateway: await runCli(['gateway'], env, undefined, 30_000),
      start: await runCli(['start'], env, undefined, 90_000),
    };
    for (const [command, result] of Object.entries(results)) {
      expect({ command, code: result.code, stdout: result.stdout }).toEqual({ command, code: 2, stdout: '' });
      expect(result.stderr, command).toContain(`invalid gateway configuration ${file}:\n  ${PROBLEM}\n`);
    }
    // Refused before anything starts: `start` neither created nor locked DATA_DIR.
    expect(existsSync(env.DATA_DIR)).toBe(false);
  });

  it('exits 2 from tokengate upstream too, naming the variable', { timeout: 60_000 }, async () => {
    const result = await runCli(
      ['upstream'],
      { UPSTREAM_PORT: 'eighty', DATA_DIR: join(dir, 'data') },
      undefined,
      30_000,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^tokengate: invalid configuration:\n {2}UPSTREAM_PORT: /);
  });
});
