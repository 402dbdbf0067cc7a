import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepRenewing, otherHostHolder, otherNamespaceHolder, readHolder, waitFor, writeLock } from './lock-files.ts';

const CLI = join(import.meta.dirname, '../../../src/cli/main.ts');
const SHORT_LEASE = join(import.meta.dirname, 'short-lease.ts');

/** `tokengate <command>` on DATA_DIR `dataDir`, its store lock on the lease given ("renewMs,leaseMs"). */
function launch(command: string, dataDir: string, lease: string) {
  const { DATABASE_URL: _unused, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', SHORT_LEASE, CLI, command], {
    env: {
      ...env,
      DATA_DIR: dataDir,
      UPSTREAM_PORT: '0',
      ADMIN_PORT: '0',
      GATEWAY_PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      TEST_LOCK_LEASE: lease,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const exited = once(child, 'exit').then(([code]) => {
    clearTimeout(killer);
    return code as number | null;
  });
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

describe('tokengate upstream on a DATA_DIR locked by a holder it cannot look up', () => {
  let root: string;
  let count = 0;
  /** A DATA_DIR of its own for each test, and its lock file. */
  const dataDir = async () => {
    const dir = join(root, `data${++count}`);
    await mkdir(dir, { mode: 0o700 });
    return { dir, file: join(dir, 'db.lock') };
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tg-lock-cli-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('waits out the lease of its own run before a restart (another PID namespace, killed), saying so in one line, then starts', {
    timeout: 60_000,
  }, async () => {
    // Regression: a container restarted after a SIGKILL or an out-of-memory kill exited 1, and stayed down without a restart policy.
    const { dir, file } = await dataDir();
    await writeLock(file, otherNamespaceHolder());
    const upstream = launch('upstream', dir, '50,1500');
    try {
      await waitFor(
        () => upstream.stdout().includes('admin token:') || upstream.child.exitCode !== null,
        'the banner',
        30_000,
      );
      expect(upstream.stderr()).toBe('');
      const waits = upstream
        .stdout()
        .split('\n')
        .filter((line) => line.includes('waiting up to'));
      expect(waits).toHaveLength(1);
      expect(JSON.parse(waits[0]!)).toMatchObject({
        level: 40,
        name: 'upstream',
        lock: file,
        msg: expect.stringMatching(
          /^embedded store locked by process 1 on this host .* waiting up to 2 s for its lease to run out/,
        ),
      });
      expect((await readHolder(file)).pid).toBe(upstream.child.pid);
      upstream.child.kill('SIGTERM');
      expect(await upstream.exited).toBe(0);
      await expect(readFile(file)).rejects.toThrow('ENOENT');
    } finally {
      upstream.child.kill('SIGKILL');
    }
  });

  it('refuses, one full lease later, a DATA_DIR another host keeps renewing, with one line naming the holder and no stack trace', {
    timeout: 60_000,
  }, async () => {
    const { dir, file } = await dataDir();
    const holder = otherHostHolder('web-2');
    await writeLock(file, holder);
    const stopRenewing = keepRenewing(file, 50);
    try {
      const started = Date.now();
      const upstream = launch('upstream', dir, '50,1500');
      expect(await upstream.exited).toBe(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      expect(upstream.stderr()).toMatch(
        new RegExp(
          `^tokengate: embedded store in use by process ${process.pid} on host web-2 since ${holder.since} \\(${file}, renewed \\d+ s ago\\)\\. One process per DATA_DIR: [^\\n]+ when its lease has run out\\.\\n$`,
        ),
      );
      expect(await readHolder(file)).toEqual(holder);
    } finally {
      stopRenewing();
    }
  });

  it.each(['upstream', 'start'])(
    '`tokengate %s` stopped by SIGTERM while it waits exits at once with 0, leaving the lock to its holder',
    { timeout: 60_000 },
    async (command) => {
      const { dir, file } = await dataDir();
      await writeLock(file, otherNamespaceHolder());
      const before = await readFile(file, 'utf8');
      const stopRenewing = keepRenewing(file, 50);
      const tokengate = launch(command, dir, '50,60000');
      try {
        await waitFor(
          () => tokengate.stdout().includes('waiting up to 60 s') || tokengate.child.exitCode !== null,
          'the wait',
          30_000,
        );
        expect(tokengate.stdout()).toContain('waiting up to 60 s');
        const signalled = Date.now();
        tokengate.child.kill('SIGTERM');
        expect(await tokengate.exited).toBe(0);
        expect(Date.now() - signalled).toBeLessThan(2_000);
        expect(tokengate.stderr()).toBe('');
        expect(await readFile(file, 'utf8')).toBe(before);
        expect(await readdir(dir)).not.toContain('db.lock.takeover');
      } finally {
        stopRenewing();
        tokengate.child.kill('SIGKILL');
      }
    },
  );
});
