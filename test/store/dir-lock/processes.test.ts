import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherHostHolder, writeLock } from './lock-files.ts';

/** Runs a fixture to its end: its exit code and stderr. */
async function run(name: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [name, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, stderr };
}

describe('embedded store lock between processes', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tg-lock-proc-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('tokengate upstream refuses a DATA_DIR another host holds with one line naming the holder, no stack trace', async () => {
    const dataDir = join(root, 'cli');
    const holder = otherHostHolder('web-2');
    await mkdir(dataDir, { mode: 0o700 });
    await writeLock(join(dataDir, 'db.lock'), holder);
    const { DATABASE_URL: _unused, ...env } = process.env;
    const cli = join(import.meta.dirname, '../../../src/cli/main.ts');
    const result = await run(cli, ['upstream'], { ...env, DATA_DIR: dataDir, UPSTREAM_PORT: '0', ADMIN_PORT: '0', LOG_LEVEL: 'warn' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^tokengate: embedded store in use by process ${process.pid} on host web-2 since ${holder.since} \\(${dataDir}/db\\.lock, renewed \\d+ s ago\\)\\. One process per DATA_DIR: [^\\n]+ when its lease has run out\\.\\n$`),
    );
  });
});
