import { sharesOurPids } from './dir-lock-holder.ts';
import type { LockState } from './dir-lock-file.ts';

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
 * keeps its directory at most 30 s from another host; from this one, its dead pid frees it at once.
 */
export const DEFAULT_LEASE: LeaseTimings = { renewMs: 5_000, leaseMs: 30_000 };

/**
 * Whether the lock still holds. Where the holder's pid can be looked up (this host and PID
 * namespace), a dead pid frees it at once and a live one holds only while the lease is fresh (a
 * pid reused by another program does not renew). Elsewhere the lease alone decides. An old
 * pid-only lock is never renewed: its pid alone decides, as it did.
 */
export function isLive(lock: LockState, now: number, lease: LeaseTimings): boolean {
  const fresh = now - lock.renewedAt < lease.leaseMs;
  const { holder } = lock;
  if (holder === null || !sharesOurPids(holder)) return fresh;
  // Our own pid is a leftover of an earlier life of it: this process's own locks are refused earlier.
  const running = holder.pid !== process.pid && isRunning(holder.pid);
  return holder.pidOnly ? running : running && fresh;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When the lock runs out if nobody renews it. */
export function leaseEnd(lock: LockState, lease: LeaseTimings): number {
  return lock.renewedAt + lease.leaseMs;
}
