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
