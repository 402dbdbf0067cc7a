import { DatabaseSync } from 'node:sqlite';
import { removeEarlierLock } from './dir-lock-earlier.ts';
import { lockHeldError, readHolder, recordHolder } from './dir-lock-holder.ts';

/**
 * PGlite is single-user: two processes (or two stores in one process) on one directory would
 * corrupt it. `<dir>.lock` is an empty SQLite file whose write lock (BEGIN IMMEDIATE) the holder
 * keeps while the store is open. SQLite takes it as a POSIX record lock, which the kernel keeps:
 * granted to exactly one of processes racing for it, seen by every process on the host whatever
 * its PID namespace (containers sharing the volume), kept by a paused holder (SIGSTOP), and
 * dropped the moment its process ends, however it ends (SIGKILL, out of memory). No lease, nothing
 * to renew, never stale. `<dir>.holder` names the holder for the refusal (dir-lock-holder.ts).
 *
 * Both files stay: were one removed, a start could lock the old file while another locks the new.
 * A POSIX lock is also dropped when its process closes any descriptor of the file: nothing in the
 * holding process may open `<dir>.lock` but SQLite, which keeps its own descriptors open meanwhile.
 */

/** A start holds `<dir>.holder` for the milliseconds of its check; one holding it longer is stuck. */
const START_WAIT_MS = 5_000;
const SQLITE_BUSY = 5;

/** Locks this process holds, by directory: refused a second time, and kept from garbage collection (which would close them). */
const held = new Map<string, DatabaseSync>();

export async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  if (held.has(dir)) throw new Error(`embedded store already open in this process: ${dir}`);
  const lock = takeLock(dir);
  held.set(dir, lock);
  return async () => {
    if (held.get(dir) !== lock) return;
    held.delete(dir);
    lock.close();
  };
}

/**
 * Under the write lock of `<dir>.holder`, so that the holder it names is the one holding
 * `<dir>.lock`: takes `<dir>.lock` and records this process, or reads who holds it.
 */
function takeLock(dir: string): DatabaseSync {
  const holders = new DatabaseSync(`${dir}.holder`, { timeout: START_WAIT_MS });
  try {
    if (!takeWriteLock(holders, `${dir}.holder`)) {
      throw new Error(
        `another process has been starting on ${dir} for over ${START_WAIT_MS / 1000} s (it holds ${dir}.holder): start again once it has started or ended`,
      );
    }
    const file = `${dir}.lock`;
    removeEarlierLock(file);
    const lock = new DatabaseSync(file);
    try {
      // The write lock on an empty file starts its first page, never committed: journal it in memory, not beside it.
      lock.exec('PRAGMA journal_mode = MEMORY');
      if (!takeWriteLock(lock, file)) throw lockHeldError(file, readHolder(holders));
      recordHolder(holders);
      holders.exec('COMMIT');
      return lock;
    } catch (error) {
      lock.close();
      throw error;
    }
  } finally {
    if (holders.isTransaction) holders.exec('ROLLBACK');
    holders.close();
  }
}

/** BEGIN IMMEDIATE: the file's write lock, or false when another connection holds it (SQLITE_BUSY). */
function takeWriteLock(db: DatabaseSync, file: string): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    return true;
  } catch (error) {
    if ((error as { errcode?: unknown }).errcode === SQLITE_BUSY) return false;
    // SQLite's message ("file is not a database") does not say which.
    throw new Error(`cannot lock ${file}: ${(error as Error).message}`, { cause: error });
  }
}
