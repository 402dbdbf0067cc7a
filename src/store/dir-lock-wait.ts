import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '#common';
import { type LockState, readLock } from './dir-lock-file.ts';
import { type LeaseTimings, leaseEnd, whatHolds } from './dir-lock-lease.ts';
import { leaseWaitMessage, lockHeldError } from './dir-lock-message.ts';

/** How soon a lock released during the wait (its holder stopped cleanly) is seen. */
const POLL_MS = 1_000;

export interface WaitOptions {
  lease: LeaseTimings;
  log?: Logger | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Waits while a lock is held by its lease alone: its holder is on another host or in another PID
 * namespace, where its pid cannot be looked up. A container restarted after its upstream was
 * killed (SIGKILL, out of memory) has a new PID namespace and finds its own earlier lock so,
 * renewed moments before the kill: refused at once, it exited and stayed down without a restart
 * policy. The returned wait resolves once the lock is gone, run out or another's, for the caller
 * to try again; it throws the refusal once a holder still renews it one full lease after the
 * first wait began (a live second writer), and the signal's AbortError (a SIGTERM meanwhile).
 */
export function leaseWaiter(file: string, options: WaitOptions): (lock: LockState, now: number) => Promise<void> {
  let until: number | undefined;
  return async (lock, now) => {
    if (until === undefined) {
      // A renewal stamped ahead of our clock (another host's) moves the end on.
      until = Math.max(now, lock.renewedAt) + options.lease.leaseMs;
      options.log?.warn(
        { lock: file, heldBy: lock.holder, waitMs: until - now },
        leaseWaitMessage(file, lock, now, until),
      );
    }
    await waitOut(file, lock, until, options);
  };
}

async function waitOut(file: string, lock: LockState, until: number, { lease, signal }: WaitOptions): Promise<void> {
  for (let current = lock; ; ) {
    const now = Date.now();
    if (now >= until) throw lockHeldError(file, current, now, lease, 'lease');
    await delay(Math.min(POLL_MS, until - now, Math.max(1, leaseEnd(current, lease) - now)), undefined, { signal });
    const next = await readLock(file);
    if (next === null || next.text !== current.text || whatHolds(next, Date.now(), lease) === null) return;
    current = next;
  }
}
