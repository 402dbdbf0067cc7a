import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { formatHolder, type LockHolder, thisProcess } from '../../../src/store/dir-lock-holder.ts';
import type { LeaseTimings } from '../../../src/store/dir-lock-lease.ts';

export const HOUR_MS = 3_600_000;
/** Fast renewals, for tests that watch them; the lease is long enough not to run out by accident. */
export const FAST_LEASE: LeaseTimings = { renewMs: 20, leaseMs: 5_000 };
/** A lease short enough for a test to wait it out. */
export const WAIT_LEASE: LeaseTimings = { renewMs: 20, leaseMs: 600 };
export const DEAD_PID = 2_147_483_646;

/**
 * A temporary root for the calling describe block (removed after it) and `fresh()`: a store
 * directory of its own for each test, with the path of its lock file.
 */
export function lockDirs(prefix: string): { fresh(): { dir: string; file: string } } {
  let root: string;
  let count = 0;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  return {
    fresh() {
      const dir = join(root, `db${++count}`);
      return { dir, file: `${dir}.lock` };
    },
  };
}

/** A holder in this host and PID namespace, with another pid and, where /proc tells it, that pid's start time. */
export function thisHostHolder(pid: number): LockHolder {
  const { startTime: _ours, ...holder } = thisProcess(Date.now() - HOUR_MS);
  const startTime = startTimeOf(pid);
  return { ...holder, pid, ...(startTime === undefined ? {} : { startTime }) };
}

/** As a lock written before start times were recorded names a holder in this host and PID namespace. */
export function holderWithoutStartTime(pid: number): LockHolder {
  const { startTime: _unused, ...holder } = thisHostHolder(pid);
  return holder;
}

/** Field 22 of /proc/<pid>/stat (read here apart from the code under test); undefined without /proc or the process. */
export function startTimeOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return undefined;
  }
}

export const HAS_PROC = startTimeOf(process.pid) !== undefined;

/** A holder on another host. Its pid is ours, which means nothing there. */
export function otherHostHolder(host = 'other-host'): LockHolder {
  return { host, pid: process.pid, since: new Date(Date.now() - HOUR_MS).toISOString() };
}

/** A holder in another container on this host (our host name, another PID namespace), such as this one before a restart. */
export function otherNamespaceHolder(pid = 1): LockHolder {
  return {
    host: hostname(),
    pid,
    since: new Date(Date.now() - HOUR_MS).toISOString(),
    pidNamespace: 'another boot pid:[4026531836]',
  };
}

/** Renews a lock file every `everyMs` as its holder would, until the returned stop. */
export function keepRenewing(file: string, everyMs: number): () => void {
  const timer = setInterval(() => void setRenewedAgo(file, 0).catch(() => {}), everyMs);
  return () => clearInterval(timer);
}

/** Writes a lock file as renewed `ageMs` ago (its mtime). */
export async function writeLock(file: string, content: LockHolder | string, ageMs = 0): Promise<void> {
  await writeFile(file, typeof content === 'string' ? content : formatHolder(content));
  await setRenewedAgo(file, ageMs);
}

export async function setRenewedAgo(file: string, ageMs: number): Promise<void> {
  const at = new Date(Date.now() - ageMs);
  await utimes(file, at, at);
}

export async function renewedAgo(file: string): Promise<number> {
  return Date.now() - (await stat(file)).mtimeMs;
}

export async function readHolder(file: string): Promise<LockHolder> {
  return JSON.parse(await readFile(file, 'utf8')) as LockHolder;
}

export async function waitFor(
  condition: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
