import type { LockState } from './dir-lock-file.ts';
import { sharesOurPids } from './dir-lock-holder.ts';
import { lookUpProcess } from './dir-lock-process.ts';

export interface LeaseTimings {
  /** How often the holder touches its lock file (mtime). */
  renewMs: number;
  /** How long after its last renewal a lock still holds. */
  leaseMs: number;
}

/**
 * Six renewals to a lease: PGlite runs on the event loop, so a long statement delays a renewal,
 * and the clocks of two hosts may disagree by a few seconds (the mtime is the holder's clock, the
 * age the reader's). A holder that is gone without releasing (killed, its container removed)
 * keeps its directory at most 30 s from another host or container, which a start there waits out
 * (dir-lock-wait.ts); from this one, its dead pid frees it at once. Not frozen: tests of whole
 * processes shorten it with a preload (test/store/dir-lock/short-lease.ts).
 */
export const DEFAULT_LEASE: LeaseTimings = { renewMs: 5_000, leaseMs: 30_000 };

/**
 * What keeps a lock held: its holder's process, found running here with the start time it
 * recorded (held however long unrenewed: a paused holder still writes once resumed); its pid,
 * running here where start times cannot be compared; or its lease alone, where the pid cannot be
 * looked up (another host or PID namespace). null: nothing does, the lock is free to take over.
 */
export type HeldBy = 'process' | 'pid' | 'lease';

/**
 * On this host and PID namespace a dead pid frees the lock at once, and so does a live one with
 * another start time (a reused pid). Without start times to compare, a live pid holds only while
 * the lease is fresh (a reused pid does not renew). An old pid-only lock is never renewed: its
 * pid alone decides, as it did.
 */
export function whatHolds(lock: LockState, now: number, lease: LeaseTimings): HeldBy | null {
  const fresh = now - lock.renewedAt < lease.leaseMs;
  const { holder } = lock;
  if (holder === null || !sharesOurPids(holder)) return fresh ? 'lease' : null;
  // Our own pid is a leftover of an earlier life of it: this process's own locks are refused earlier.
  if (holder.pid === process.pid) return null;
  const found = lookUpProcess(holder.pid);
  if (!found.running) return null;
  if (holder.pidOnly) return 'pid';
  if (holder.startTime === undefined || found.startTime === undefined) return fresh ? 'pid' : null;
  return holder.startTime === found.startTime ? 'process' : null;
}

export function isLive(lock: LockState, now: number, lease: LeaseTimings): boolean {
  return whatHolds(lock, now, lease) !== null;
}

/** When the lock runs out if nobody renews it. */
export function leaseEnd(lock: LockState, lease: LeaseTimings): number {
  return lock.renewedAt + lease.leaseMs;
}
