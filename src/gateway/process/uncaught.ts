import type { Logger } from '#common';

/**
 * A bug that throws out of a callback would end the process at once, losing the access-log lines
 * of its last second (written once a second) and leaving only a stack trace on stderr, outside
 * the JSON log. Logged as a fatal line instead, then the log is flushed (bounded, as at shutdown)
 * and the process exits 1 (the primary restarts a worker).
 */
export function exitOnUncaughtError(log: Logger, flush: () => Promise<boolean>): void {
  let exiting = false;
  process.on('uncaughtException', (error) => {
    if (exiting) return;
    exiting = true;
    log.fatal({ err: error }, 'uncaught exception; exiting');
    void flush().finally(() => process.exit(1));
  });
}
