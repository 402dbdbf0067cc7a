import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDirectory } from '../../../src/store/dir-lock.ts';
import { captureLogger } from '../harness.ts';
import {
  keepRenewing,
  lockDirs,
  otherHostHolder,
  otherNamespaceHolder,
  readHolder,
  thisHostHolder,
  WAIT_LEASE,
  waitFor,
  writeLock,
} from './lock-files.ts';

describe('embedded store lock: waiting for the lease of a holder it cannot look up', () => {
  const { fresh } = lockDirs('tg-lock-wait-');

  it('waits for the lease of a holder in another PID namespace that stops renewing (this container before a restart), then takes the lock', async () => {
    // Regression: refused at once, a container restarted after its upstream was killed exited 1.
    const { dir, file } = fresh();
    const { log, lines } = captureLogger();
    await writeLock(file, otherNamespaceHolder());
    const started = Date.now();
    const release = await lockDirectory(dir, { lease: WAIT_LEASE, log });
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_LEASE.leaseMs - 50);
    expect((await readHolder(file)).pid).toBe(process.pid);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      lock: file,
      heldBy: { pid: 1 },
      msg: expect.stringMatching(
        /^embedded store locked by process 1 on this host \(\S+\) in another PID namespace since \S+ \(.+, renewed 0 s ago\), which cannot be checked from here: waiting up to 1 s for its lease to run out/,
      ),
    });
    await release();
  });

  it('takes the lock as soon as a holder on another host that was renewing it releases it', async () => {
    const { dir, file } = fresh();
    const lease = { renewMs: 20, leaseMs: 10_000 };
    await writeLock(file, otherHostHolder());
    const stopRenewing = keepRenewing(file, lease.renewMs);
    const taking = lockDirectory(dir, { lease });
    await new Promise((resolve) => setTimeout(resolve, 300));
    stopRenewing();
    await rm(file);
    const started = Date.now();
    const release = await taking;
    expect(Date.now() - started).toBeLessThan(2_000);
    await release();
  });

  it('refuses a holder on another host that keeps renewing its lock one full lease after the wait began (a live second writer)', async () => {
    const { dir, file } = fresh();
    await writeLock(file, otherHostHolder('web-2'));
    const stopRenewing = keepRenewing(file, WAIT_LEASE.renewMs);
    const started = Date.now();
    await expect(lockDirectory(dir, { lease: WAIT_LEASE })).rejects.toThrow(
      /^embedded store in use by process \d+ on host web-2 since/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_LEASE.leaseMs - 50);
    stopRenewing();
  });

  it('refuses a live holder on this host at once, without waiting or logging', async () => {
    const { dir, file } = fresh();
    const { log, lines } = captureLogger();
    await writeLock(file, thisHostHolder(process.ppid));
    const started = Date.now();
    await expect(lockDirectory(dir, { lease: { renewMs: 20, leaseMs: 10_000 }, log })).rejects.toThrow(
      `in use by process ${process.ppid} on this host`,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(lines).toEqual([]);
  });

  it('gives up the wait at once when aborted (a SIGTERM during start-up), leaving the lock to its holder', async () => {
    const { dir, file } = fresh();
    await writeLock(file, otherNamespaceHolder());
    const before = await readFile(file, 'utf8');
    const stopRenewing = keepRenewing(file, 20);
    const abort = new AbortController();
    const taking = lockDirectory(dir, { lease: { renewMs: 20, leaseMs: 10_000 }, signal: abort.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    abort.abort();
    await expect(taking).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(500);
    stopRenewing();
    expect(await readFile(file, 'utf8')).toBe(before);
    expect((await readdir(dirname(dir))).filter((name) => name.startsWith(`${basename(dir)}.`))).toEqual([
      `${basename(dir)}.lock`,
    ]);
    // Not held here: a later start may take it.
    await rm(file);
    await waitFor(
      async () => (await lockDirectory(dir).then((release) => release().then(() => true))) === true,
      'the lock again',
    );
  });
});
