import { utimes } from 'node:fs/promises';
import { createExclusive, type LockState, readLock } from './dir-lock-file.ts';

export interface RenewalEvents {
  /** The lock file names another holder: it took the lock over. */
  lost(now: LockState): void;
  failed(error: unknown): void;
}

/**
 * Touches the lock file every `renewMs` while it still holds `text`, so that other hosts see the
 * holder alive. Unref'd: a lock never keeps the process up. Stops for good once another holder
 * has the lock, never touching its file. Returns the stop, which waits for a renewal under way.
 */
export function renewLease(file: string, text: string, renewMs: number, events: RenewalEvents): () => Promise<void> {
  let stopped = false;
  let renewing: Promise<void> | null = null;
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  const renew = async () => {
    const lock = await readLock(file);
    // Deleted from under us (by hand): take it again, unless another process is quicker.
    if (lock === null) await createExclusive(file, text);
    else if (lock.text !== text) {
      stop();
      events.lost(lock);
    } else {
      const now = new Date();
      await utimes(file, now, now);
    }
  };
  const timer = setInterval(() => {
    if (renewing || stopped) return;
    renewing = renew()
      .catch(events.failed)
      .finally(() => {
        renewing = null;
      });
  }, renewMs);
  timer.unref();
  return async () => {
    stop();
    await renewing;
  };
}
