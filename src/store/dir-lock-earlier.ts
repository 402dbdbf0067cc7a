import { readFileSync, rmSync, statSync } from 'node:fs';
import { ONE_PROCESS } from './dir-lock-holder.ts';

/** An earlier tokengate's lock was a JSON line it renewed every 5 s and that ran out 30 s unrenewed. */
const EARLIER_LEASE_MS = 30_000;

/**
 * A rolling upgrade may start this version beside an earlier one on the same DATA_DIR. Its lock,
 * never empty (this version's is), holds while renewed; once run out (its holder gone), it is
 * removed for this version's. Called under the write lock of `<dir>.holder`: one start at a time.
 */
export function removeEarlierLock(file: string, now = Date.now()): void {
  const found = statSync(file, { throwIfNoEntry: false });
  if (found === undefined || found.size === 0) return;
  const age = now - found.mtimeMs;
  if (age >= EARLIER_LEASE_MS) {
    rmSync(file);
    return;
  }
  const names = readFileSync(file, 'utf8').trim().slice(0, 300);
  throw new Error(
    `embedded store in use by an earlier tokengate: ${file} reads ${names}, renewed ${Math.round(age / 1000)} s ago. ${ONE_PROCESS} Stop it before starting this version; if it is gone, start again in ${Math.ceil((EARLIER_LEASE_MS - age) / 1000)} s.`,
  );
}
