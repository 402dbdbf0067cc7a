import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { lockDirectory } from '../../../src/store/dir-lock.ts';
import type { LeaseTimings } from '../../../src/store/dir-lock-lease.ts';
import { parseStat } from '../../../src/store/dir-lock-process.ts';
import {
  HAS_PROC,
  lockDirs,
  readHolder,
  renewedAgo,
  startTimeOf,
  thisHostHolder,
  waitFor,
  writeLock,
} from './lock-files.ts';

/** A lease short enough to run out while a test waits. */
const SHORT_LEASE: LeaseTimings = { renewMs: 20, leaseMs: 300 };

/** The first line a child prints. */
async function firstLine(child: ReturnType<typeof spawn>): Promise<string> {
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return line;
}

describe.skipIf(!HAS_PROC)('embedded store lock: holders on this host, told apart by start time', () => {
  const { fresh } = lockDirs('tg-lock-host-');

  it('records the start time of the holder process', async () => {
    const { dir, file } = fresh();
    const release = await lockDirectory(dir);
    expect((await readHolder(file)).startTime).toBe(startTimeOf(process.pid));
    await release();
  });

  it('keeps the lock of a holder paused (SIGSTOP) past its lease: another process on this host is refused', {
    timeout: 15_000,
  }, async () => {
    // Regression: the unrenewed lease freed the lock, and after SIGCONT two processes wrote the directory.
    const { dir, file } = fresh();
    const holder = spawn(process.execPath, [join(import.meta.dirname, 'holder.ts'), dir], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      expect(await firstLine(holder)).toBe('locked');
      holder.kill('SIGSTOP');
      await waitFor(async () => (await renewedAgo(file)) > SHORT_LEASE.leaseMs * 2, 'the lease to run out');
      await expect(lockDirectory(dir, { lease: SHORT_LEASE })).rejects.toThrow(
        `embedded store in use by process ${holder.pid} on this host`,
      );
      holder.kill('SIGCONT');
      await waitFor(async () => (await renewedAgo(file)) < SHORT_LEASE.leaseMs, 'a renewal after SIGCONT');
      expect((await readHolder(file)).pid).toBe(holder.pid);
    } finally {
      holder.kill('SIGCONT');
      holder.stdin.end();
      if (holder.exitCode === null) await once(holder, 'exit');
    }
    await expect(readFile(file)).rejects.toThrow('ENOENT');
  });

  it('asks to check that a live holder with its start time is a tokengate upstream, and says nothing of its lease', async () => {
    const { dir, file } = fresh();
    await writeLock(file, thisHostHolder(process.ppid));
    await expect(lockDirectory(dir)).rejects.toThrow(
      new RegExp(
        `^embedded store in use by process ${process.ppid} on this host \\(${hostname()}\\) since \\S+ \\(${file}, renewed \\d+ s ago\\)\\. One process per DATA_DIR: [^.]+\\. Check that process ${process.ppid} is a tokengate upstream \\(ps -p ${process.ppid} -o args\\)\\.$`,
      ),
    );
  });

  it('takes over at once a lock renewed moments ago whose live pid has another start time (a reused pid)', async () => {
    const { dir, file } = fresh();
    const parent = thisHostHolder(process.ppid);
    await writeLock(file, { ...parent, startTime: parent.startTime! + 1 });
    const release = await lockDirectory(dir);
    expect((await readHolder(file)).pid).toBe(process.pid);
    await release();
  });

  it('takes over at once a lock whose holder was killed but not yet reaped by its parent (a zombie)', async () => {
    const { dir, file } = fresh();
    // `sleep 0` ends at once; the shell execs into `sleep 10`, which never reaps it.
    const shell = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 10'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const zombie = Number(await firstLine(shell));
      await waitFor(async () => (await readFile(`/proc/${zombie}/stat`, 'utf8')).includes(') Z '), 'a zombie');
      await writeLock(file, thisHostHolder(zombie));
      const release = await lockDirectory(dir);
      expect((await readHolder(file)).pid).toBe(process.pid);
      await release();
    } finally {
      shell.kill('SIGKILL');
    }
  });

  it('reads the start time after a command name holding spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    expect(parseStat(`42 (a) b (c)) S ${fields.slice(1).join(' ')}\n`)).toEqual({ exited: false, startTime: 22 });
    expect(parseStat(`42 (x) Z ${fields.slice(1).join(' ')}`)).toEqual({ exited: true, startTime: 22 });
  });
});
