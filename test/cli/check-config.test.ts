import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-runner.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('tokengate check-config', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tokengate-check-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints OK and exits 0 for the default route map of the local stack', async () => {
    const result = await runCli(['check-config', 'config/gateway.yaml'], {}, ROOT);
    expect(result).toMatchObject({ code: 0, stdout: 'OK config/gateway.yaml\n', stderr: '' });
  });

  it('prints every problem with its path and line on stderr and exits 2, as the gateway does on that file', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'routes:\n  - path: /x\n    auth: bearer\n    scopes: [adress]\n');
    const result = await runCli(['check-config', file], {}, ROOT);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('routes[0].scopes[0]: unknown scope "adress" (line 4)');
  });

  it('exits 2 naming both routes when two parameter routes differ only in their parameter names', async () => {
    const file = join(dir, 'same-shape.yaml');
    await writeFile(
      file,
      'routes:\n  - { path: /api/items/:id, auth: bearer }\n  - { path: /api/items/:itemId, auth: bearer }\n',
    );
    const result = await runCli(['check-config', file], {}, ROOT);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'routes[1].path: duplicate route GET /api/items/:itemId: the same route as routes[0] /api/items/:id',
    );
    expect(result.stderr).toContain('(line 3)');
  });

  it("checks the upstream's environment too: every bad variable by name, exit 2, nothing on stdout", async () => {
    const result = await runCli(
      ['check-config', 'config/gateway.yaml'],
      { ADMIN_PORT: '70000', SIGNING_ALG: 'HS256', KEY_ENCRYPTION_KEY: 'hunter2' },
      ROOT,
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'invalid upstream environment:\n' +
        '  ADMIN_PORT: must be a port number 0..65535 (got "70000")\n' +
        '  SIGNING_ALG: must be one of RS256, ES256, EdDSA (got "HS256")\n' +
        '  KEY_ENCRYPTION_KEY: must be at least 16 characters long\n',
    );
  });

  it('reports the problems of both sides in one run: the file with lines, the environment by name', async () => {
    const file = join(dir, 'both.yaml');
    await writeFile(
      file,
      `upstream:\n  url: \${CHECK_CONFIG_UNSET}\nroutes:\n  - { path: /x, auth: bearer, scopes: [adress] }\n`,
    );
    const result = await runCli(['check-config', file], { DATABASE_TIMEOUT_MS: 'soon' }, ROOT);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `invalid gateway configuration ${file}:\n` +
        '  upstream.url: environment variable CHECK_CONFIG_UNSET is not set and has no default (line 2)\n' +
        '  routes[0].scopes[0]: unknown scope "adress" (line 4)\n' +
        'invalid upstream environment:\n' +
        '  DATABASE_TIMEOUT_MS: must be a whole number of milliseconds 100..600000 (got "soon")\n',
    );
  });

  it('asks for exactly one file', async () => {
    const result = await runCli(['check-config'], {}, ROOT);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage: tokengate check-config FILE');
  });
});

describe('bin/tokengate.js launcher', () => {
  it('runs the CLI on Node 24 with its exit code', async () => {
    const { spawn } = await import('node:child_process');
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [join(ROOT, 'bin', 'tokengate.js'), ...args], { cwd: ROOT });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.on('close', (code) => resolve({ code, stdout }));
      });
    expect(await run(['check-config', 'config/gateway.yaml'])).toEqual({ code: 0, stdout: 'OK config/gateway.yaml\n' });
    expect((await run(['frobnicate'])).code).toBe(2);
  });
});
