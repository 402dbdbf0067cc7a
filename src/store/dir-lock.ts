import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '#common';
import { createExclusive, type LockState, readLock, removeIfHeld, removeIfHeldSync } from './dir-lock-file.ts';
import { formatHolder, thisProcess } from './dir-lock-holder.ts';
import { DEFAULT_LEASE, isLive, type LeaseTimings, whatHolds } from './dir-lock-lease.ts';
import { lockHeldError } from './dir-lock-message.ts';
import { renewLease } from './dir-lock-renewal.ts';
import { leaseWaiter, type WaitOptions } from './dir-lock-wait.ts';

/**
 * PGlite is single-user: two processes (or two stores in one process) on one directory would
 * corrupt it. A lock file beside it (`<dir>.lock`) names its holder (host, pid, PID namespace,
 * since when) and is renewed while held; dir-lock-lease.ts says when a holder that is gone
 * without releasing it (crash, container restart) has left it free to take over, and
 * dir-lock-wait.ts how a start waits for the lease of a holder it cannot look up.
 */
export interface LockOptions {
  log?: Logger | undefined;
  /** Tests shorten it; the default suits every deployment. */
  lease?: LeaseTimings | undefined;
  /** Ends a wait for another host's or namespace's lease (a stop signal during start-up): rejects with its AbortError. */
  signal?: AbortSignal | undefined;
}

/** Locks this process holds, by directory: refused a second time, released at exit. */
const held = new Map<string, { file: string; text: string }>();
const ATTEMPTS = 50;
const RETRY_MS = 20;

export async function lockDirectory(dir: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  if (held.has(dir)) throw new Error(`embedded store already open in this process: ${dir}`);
  const file = `${dir}.lock`;
  const text = formatHolder(thisProcess(Date.now()));
  const lease = options.lease ?? DEFAULT_LEASE;
  held.set(dir, { file, text });
  try {
    await takeLock(file, text, { ...options, lease });
  } catch (error) {
    held.delete(dir);
    throw error;
  }
  releaseAtExit();
  const { log } = options;
  const stopRenewal = renewLease(file, text, lease.renewMs, {
    lost: (now) =>
      log?.error(
        { lock: file, heldBy: now.holder },
        'another process took over the embedded store lock this process holds (it went unrenewed past its lease: the process was paused, or the hosts disagree on the time): stop this process, two processes writing one DATA_DIR corrupt it',
      ),
    failed: (error) =>
      log?.warn(
        { err: error, lock: file },
        'could not renew the embedded store lock: other hosts take it over once its lease runs out',
      ),
  });
  return async () => {
    await stopRenewal();
    await removeIfHeld(file, text);
    held.delete(dir);
  };
}

async function takeLock(file: string, text: string, options: WaitOptions): Promise<void> {
  const { lease } = options;
  const waitForLease = leaseWaiter(file, options);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (await createExclusive(file, text)) return;
    const lock = await readLock(file);
    if (lock === null) continue;
    const now = Date.now();
    const heldBy = whatHolds(lock, now, lease);
    if (heldBy === null) await takeOver(file, lock, text, lease);
    else if (heldBy === 'lease' && lock.holder !== null) await waitForLease(lock, now);
    else if (lock.holder !== null || attempt === ATTEMPTS) throw lockHeldError(file, lock, now, lease, heldBy);
    // Created but not yet written: read again to say who holds it.
    else await delay(RETRY_MS);
  }
  throw new Error(
    `could not take over the stale lock ${file}: ${file}.takeover says another process is taking it over. If none is (it was killed doing so), delete ${file}.takeover.`,
  );
}

/**
 * Removes a stale lock unless it changed since it was judged stale. Processes racing for it all
 * judge it stale; the takeover file lets one at a time check and remove, so none removes the
 * lock another has just created. Then all race to create it again, and one wins.
 */
async function takeOver(file: string, stale: LockState, text: string, lease: LeaseTimings): Promise<void> {
  const guard = `${file}.takeover`;
  if (!(await createExclusive(guard, text))) {
    const other = await readLock(guard);
    // Left by a process that died taking over, which takes it milliseconds.
    if (other !== null && !isLive(other, Date.now(), lease)) await removeIfHeld(guard, other.text);
    else await delay(RETRY_MS);
    return;
  }
  try {
    const now = await readLock(file);
    if (now?.text === stale.text && now.renewedAt === stale.renewedAt) await rm(file, { force: true });
  } finally {
    await removeIfHeld(guard, text);
  }
}

let exitHooked = false;

/** A process that ends without closing its store (process.exit, an uncaught error) leaves no lock: PGlite ends with it. */
function releaseAtExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const { file, text } of held.values()) removeIfHeldSync(file, text);
  });
}
