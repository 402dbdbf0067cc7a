import { hostname } from 'node:os';
import type { LockState } from './dir-lock-file.ts';
import { type HeldBy, type LeaseTimings, leaseEnd } from './dir-lock-lease.ts';

const ONE_PROCESS =
  'One process per DATA_DIR: stop that one, give this one another DATA_DIR, or set DATABASE_URL to share a PostgreSQL database between replicas.';

/** The start-up error for a held lock: who holds it, since when, and what to do (one line, for the CLI). */
export function lockHeldError(file: string, lock: LockState, now: number, lease: LeaseTimings, heldBy: HeldBy): Error {
  const { holder } = lock;
  const renewed = `renewed ${Math.max(0, Math.round((now - lock.renewedAt) / 1000))} s ago`;
  const end = leaseEnd(lock, lease);
  const wait = Math.max(0, Math.ceil((end - now) / 1000));
  const whenGone = `start again after ${new Date(end).toISOString()} (in ${wait} s), when its lease has run out`;
  if (holder === null) {
    return new Error(
      `embedded store locked by ${file}, which cannot be read (${renewed}). If no other process uses this DATA_DIR, ${whenGone}, or delete the file.`,
    );
  }
  if (holder.pidOnly) {
    return new Error(
      `embedded store in use by process ${holder.pid} on this host since ${holder.since} (${file}, written by an earlier tokengate). ${ONE_PROCESS} If that process is not a tokengate upstream (its pid was reused), delete ${file}.`,
    );
  }
  const host = holder.host === hostname() ? `this host (${holder.host})` : `host ${holder.host}`;
  const inUse = `embedded store in use by process ${holder.pid} on ${host} since ${holder.since} (${file}, ${renewed}). ${ONE_PROCESS}`;
  // On this host the pid can be looked up, and a gone one would not hold; only without start times may it be another program's.
  const check = `Check that process ${holder.pid} is a tokengate upstream (ps -p ${holder.pid} -o args)`;
  if (heldBy === 'process') return new Error(`${inUse} ${check}.`);
  if (heldBy === 'pid')
    return new Error(`${inUse} ${check}; if it is not, its pid was reused by another program: ${whenGone}.`);
  return new Error(`${inUse} If that process is gone, ${whenGone}.`);
}

/** The one log line of a start that waits for another host's or namespace's lease (dir-lock-wait.ts). */
export function leaseWaitMessage(file: string, lock: LockState, now: number, until: number): string {
  const { holder } = lock;
  if (holder === null) throw new TypeError('only a lock naming its holder is waited for');
  const where =
    holder.host === hostname() ? `this host (${holder.host}) in another PID namespace` : `host ${holder.host}`;
  const renewed = Math.max(0, Math.round((now - lock.renewedAt) / 1000));
  const wait = Math.ceil((until - now) / 1000);
  return `embedded store locked by process ${holder.pid} on ${where} since ${holder.since} (${file}, renewed ${renewed} s ago), which cannot be checked from here: waiting up to ${wait} s for its lease to run out (a holder killed without releasing it, such as this container before a restart, no longer renews it)`;
}
