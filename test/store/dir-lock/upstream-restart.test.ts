import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyMigratedStore } from '#test/store-template.ts';
import { childOf, NEW_PID_NAMESPACE, recordedHolder, run, spawnHolder, waitFor } from './lock-files.ts';

const CLI = join(import.meta.dirname, '../../../src/cli/main.ts');
/**
 * From launch to the lock taken: under a second on a quiet machine, past 5 s in a full CI run on
 * two busy cores (once over 10 s). The lock of a killed holder in another PID namespace held for 30 s, so 20 s
 * still tells the two apart.
 */
const A_FEW_SECONDS = 20_000;

/** `tokengate upstream` on DATA_DIR `dataDir`, run through `prefix` (NEW_PID_NAMESPACE) if given. */
function launch(dataDir: string, prefix: string[] = []) {
  const { DATABASE_URL: _unused, ...env } = process.env;
  const [command = '', ...args] = [...prefix, process.execPath, CLI, 'upstream'];
  const child = spawn(command, args, {
    env: { ...env, DATA_DIR: dataDir, UPSTREAM_PORT: '0', ADMIN_PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'warn' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = once(child, 'exit').then(([code]) => {
    clearTimeout(killer);
    return code as number | null;
  });
  const up = () => stdout.includes('admin token:');
  const settled = () => waitFor(() => up() || child.exitCode !== null, 'the banner or an exit', 30_000);
  return { child, exited, up, settled, stdout: () => stdout, stderr: () => stderr };
}

describe('tokengate upstream on the DATA_DIR of another', () => {
  let root: string;
  let count = 0;
  /** A DATA_DIR of its own for each test, its store migrated already: these tests are about the lock. */
  const dataDir = async () => {
    const dir = join(root, `data${++count}`);
    await mkdir(dir, { mode: 0o700 });
    await copyMigratedStore(dir);
    return dir;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tg-lock-cli-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('takes the lock within a few seconds of a restart in a new PID namespace after a SIGKILL (a restarted container), and starts', {
    timeout: 60_000,
  }, async () => {
    // Regression: the restart found the killed holder's lock in another namespace and waited 30 s for its lease.
    const dir = await dataDir();
    const killed = launch(dir, NEW_PID_NAMESPACE);
    const restarted = () => launch(dir, NEW_PID_NAMESPACE);
    let again: ReturnType<typeof restarted> | undefined;
    try {
      await killed.settled();
      expect(killed.up()).toBe(true);
      process.kill(await childOf(killed.child.pid!), 'SIGKILL');
      await killed.exited;
      const before = recordedHolder(join(dir, 'db'));
      const started = Date.now();
      again = restarted();
      await waitFor(() => recordedHolder(join(dir, 'db'))?.since !== before?.since, 'the lock', A_FEW_SECONDS);
      expect(Date.now() - started).toBeLessThan(A_FEW_SECONDS);
      await again.settled();
      expect(again.up()).toBe(true);
      expect(again.stderr()).toBe('');
      process.kill(await childOf(again.child.pid!), 'SIGTERM');
      await again.exited;
      expect(again.child.signalCode ?? again.child.exitCode).toBe(0);
    } finally {
      killed.child.kill('SIGKILL');
      again?.child.kill('SIGKILL');
    }
  });

  it('refuses a second upstream on a DATA_DIR in use: exit 1 and one line naming the holder, its start time and how to check it', {
    timeout: 60_000,
  }, async () => {
    const dir = await dataDir();
    // The first one only needs to hold the lock, as a running upstream does (the same
    // lockDirectory on DATA_DIR/db): a lock holder (holder.ts) does that without an upstream's start.
    // An upstream running until SIGTERM (exit 0) is test/cli/processes.test.ts's.
    const first = await spawnHolder([join(dir, 'db')]);
    try {
      const second = launch(dir);
      expect(await second.exited).toBe(1);
      const pid = first.pid;
      expect(second.stderr()).toMatch(
        new RegExp(
          `^tokengate: embedded store in use by process ${pid} on host ${hostname()} since \\S+Z \\(${join(dir, 'db.lock')}\\)\\. One process per DATA_DIR: [^\\n]+ To check it: ps -p ${pid} -o args on ${hostname()} [^\\n]+\\n$`,
        ),
      );
      first.stdin.end();
      expect(await once(first, 'exit')).toEqual([0, null]);
    } finally {
      first.kill('SIGKILL');
    }
  });

  it('lets exactly one of two upstreams started at once on the DATA_DIR of one killed with SIGKILL start, and refuses the other naming it', {
    timeout: 60_000,
  }, async () => {
    const dir = await dataDir();
    // The killed one only needs to leave its lock behind, as an upstream killed with SIGKILL does
    // (the same lockDirectory): a lock holder (exit-holding.ts) does that without an upstream's
    // start of several seconds. Recovering a store an upstream was killed in is the first test's.
    expect(await run('exit-holding.ts', ['SIGKILL', join(dir, 'db')])).toMatchObject({ signal: 'SIGKILL' });
    const racers = [launch, launch];
    let started: Array<ReturnType<typeof launch>> = [];
    try {
      started = racers.map((start) => start(dir));
      await Promise.all(started.map((racer) => racer.settled()));
      const winners = started.filter((racer) => racer.up());
      expect(winners).toHaveLength(1);
      const [winner] = winners;
      const loser = started.find((racer) => racer !== winner);
      expect(await loser?.exited).toBe(1);
      expect(loser?.stderr()).toMatch(`tokengate: embedded store in use by process ${winner?.child.pid} on host`);
      winner?.child.kill('SIGTERM');
      expect(await winner?.exited).toBe(0);
    } finally {
      for (const racer of started) racer.child.kill('SIGKILL');
    }
  });
});
