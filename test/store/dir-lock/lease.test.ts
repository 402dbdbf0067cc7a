import { readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lockDirectory } from '../../../src/store/dir-lock.ts';
import { captureLogger } from '../harness.ts';
import {
  DEAD_PID,
  FAST_LEASE,
  HOUR_MS,
  holderWithoutStartTime,
  keepRenewing,
  lockDirs,
  otherHostHolder,
  otherNamespaceHolder,
  readHolder,
  renewedAgo,
  setRenewedAgo,
  thisHostHolder,
  WAIT_LEASE,
  waitFor,
  writeLock,
} from './lock-files.ts';

describe('embedded store lock: holders on other hosts and leases', () => {
  const { fresh } = lockDirs('tg-lock-');

  it('writes a readable lock naming host, pid and since, and removes it at release', async () => {
    const { dir, file } = fresh();
    const release = await lockDirectory(dir);
    const holder = await readHolder(file);
    expect(holder).toMatchObject({ host: hostname(), pid: process.pid });
    expect(Date.now() - Date.parse(holder.since)).toBeLessThan(60_000);
    await release();
    await expect(readFile(file)).rejects.toThrow('ENOENT');
  });

  it('refuses a lock a process on another host keeps renewing, saying who holds it and what to do', async () => {
    const { dir, file } = fresh();
    const holder = otherHostHolder('web-2');
    await writeLock(file, holder);
    const stopRenewing = keepRenewing(file, WAIT_LEASE.renewMs);
    const refusal = lockDirectory(dir, { lease: WAIT_LEASE });
    await expect(refusal).rejects.toThrow(
      `embedded store in use by process ${process.pid} on host web-2 since ${holder.since} (${file}, renewed 0 s ago). One process per DATA_DIR: stop that one, give this one another DATA_DIR, or set DATABASE_URL`,
    );
    stopRenewing();
    await expect(refusal).rejects.toThrow(
      /If that process is gone, start again after \S+Z \(in 1 s\), when its lease has run out\.$/,
    );
    expect(await readHolder(file)).toEqual(holder);
  });

  it('refuses a lock of another container with our host name whose pid is ours (pid 1 in every container) while it is renewed', async () => {
    const { dir, file } = fresh();
    await writeLock(file, otherNamespaceHolder(process.pid));
    const stopRenewing = keepRenewing(file, WAIT_LEASE.renewMs);
    await expect(lockDirectory(dir, { lease: WAIT_LEASE })).rejects.toThrow(
      `in use by process ${process.pid} on this host (${hostname()})`,
    );
    stopRenewing();
  });

  it('takes over a lock from another host once its lease has run out', async () => {
    const { dir, file } = fresh();
    await writeLock(file, otherHostHolder(), HOUR_MS);
    const release = await lockDirectory(dir);
    expect(await readHolder(file)).toMatchObject({ host: hostname(), pid: process.pid });
    await release();
  });

  it('refuses a lock of this host whose live holder renews it', async () => {
    const { dir, file } = fresh();
    // The parent of this test process is alive and is not us.
    await writeLock(file, thisHostHolder(process.ppid));
    await expect(lockDirectory(dir)).rejects.toThrow(`in use by process ${process.ppid} on this host`);
  });

  it('refuses a lock of this host without a start time (an earlier format) whose live holder renews it', async () => {
    const { dir, file } = fresh();
    await writeLock(file, holderWithoutStartTime(process.ppid));
    const refusal = lockDirectory(dir);
    await expect(refusal).rejects.toThrow(`in use by process ${process.ppid} on this host`);
    // Without start times to compare, the pid may be another program's: then the lease frees it.
    await expect(refusal).rejects.toThrow(
      new RegExp(
        `Check that process ${process.ppid} is a tokengate upstream \\(ps -p ${process.ppid} -o args\\); if it is not, its pid was reused by another program: start again after \\S+Z \\(in 30 s\\), when its lease has run out\\.$`,
      ),
    );
  });

  it('takes over a lock of this host without a start time (an earlier format) whose pid is alive but unrenewed past its lease (a reused pid)', async () => {
    const { dir, file } = fresh();
    await writeLock(file, holderWithoutStartTime(process.ppid), HOUR_MS);
    const release = await lockDirectory(dir);
    expect((await readHolder(file)).pid).toBe(process.pid);
    await release();
  });

  it('takes over a lock of this host whose holder is gone without waiting for its lease', async () => {
    const { dir, file } = fresh();
    await writeLock(file, thisHostHolder(DEAD_PID));
    const release = await lockDirectory(dir);
    expect((await readHolder(file)).pid).toBe(process.pid);
    await release();
  });

  it('still refuses an old pid-only lock whose process is alive, however long ago it was written', async () => {
    const { dir, file } = fresh();
    await writeLock(file, String(process.ppid), HOUR_MS);
    await expect(lockDirectory(dir)).rejects.toThrow(
      `embedded store in use by process ${process.ppid} on this host since ${new Date(Date.now() - HOUR_MS).toISOString().slice(0, 16)}`,
    );
    await expect(lockDirectory(dir)).rejects.toThrow(
      `If that process is not a tokengate upstream (its pid was reused), delete ${file}.`,
    );
  });

  it('takes over an old pid-only lock whose process is gone', async () => {
    const { dir, file } = fresh();
    await writeLock(file, String(DEAD_PID));
    const release = await lockDirectory(dir);
    expect((await readHolder(file)).pid).toBe(process.pid);
    await release();
  });

  it('refuses an unreadable lock written moments ago (its holder may be writing it) and takes over one past its lease', async () => {
    const { dir, file } = fresh();
    await writeLock(file, '');
    await expect(lockDirectory(dir)).rejects.toThrow(`embedded store locked by ${file}, which cannot be read`);
    await setRenewedAgo(file, HOUR_MS);
    const release = await lockDirectory(dir);
    expect((await readHolder(file)).pid).toBe(process.pid);
    await release();
  });

  it('renews its lock while held, so that other hosts see the holder alive', async () => {
    const { dir, file } = fresh();
    const release = await lockDirectory(dir, { lease: FAST_LEASE });
    await setRenewedAgo(file, HOUR_MS);
    await waitFor(async () => (await renewedAgo(file)) < 1_000, 'a renewal');
    await release();
  });

  it('takes its lock again when the file is deleted from under it', async () => {
    const { dir, file } = fresh();
    const release = await lockDirectory(dir, { lease: FAST_LEASE });
    const before = await readFile(file, 'utf8');
    await rm(file);
    await waitFor(
      () =>
        readFile(file, 'utf8').then(
          (text) => text === before,
          () => false,
        ),
      'the lock again',
    );
    await release();
    await expect(readFile(file)).rejects.toThrow('ENOENT');
  });

  it('stops renewing a lock another process took over, logs it, and leaves that lock to its new holder at release', async () => {
    const { dir, file } = fresh();
    const { log, lines } = captureLogger();
    const release = await lockDirectory(dir, { lease: FAST_LEASE, log });
    const taker = otherHostHolder('web-3');
    await writeLock(file, taker, HOUR_MS);
    await waitFor(() => lines.some((line) => line.level === 50), 'the loss in the log');
    expect(lines[0]).toMatchObject({
      lock: file,
      heldBy: taker,
      msg: expect.stringMatching(/^another process took over the embedded store lock/),
    });
    expect(await renewedAgo(file)).toBeGreaterThan(HOUR_MS - 60_000);
    await release();
    expect(await readHolder(file)).toEqual(taker);
  });
});
