import { hostname } from 'node:os';
import type { DatabaseSync } from 'node:sqlite';

/**
 * Who holds a directory lock, as `<dir>.holder` (one row of SQLite) records it. The pid is the
 * holder's own: in a container, the pid inside it, and the host name is the container's.
 */
export interface LockHolder {
  host: string;
  pid: number;
  /** When it took the lock, ISO 8601. */
  since: string;
}

export const ONE_PROCESS =
  'One process per DATA_DIR: stop that one, give this one another DATA_DIR, or set DATABASE_URL to share a PostgreSQL database between replicas.';

const TABLE = 'CREATE TABLE IF NOT EXISTS holder (host TEXT NOT NULL, pid INTEGER NOT NULL, since TEXT NOT NULL)';

/** Within a write transaction of `db`; undefined when nothing is recorded (a file emptied by hand). */
export function readHolder(db: DatabaseSync): LockHolder | undefined {
  db.exec(TABLE);
  return db.prepare('SELECT host, pid, since FROM holder').get() as LockHolder | undefined;
}

/** Within a write transaction of `db`, committed once this process holds the lock. */
export function recordHolder(db: DatabaseSync): void {
  db.exec(`${TABLE}; DELETE FROM holder`);
  db.prepare('INSERT INTO holder VALUES (?, ?, ?)').run(hostname(), process.pid, new Date().toISOString());
}

/** The start-up error for a held lock (one line, for the CLI): who holds it, since when, how to check, what to do. */
export function lockHeldError(file: string, holder: LockHolder | undefined): Error {
  if (holder === undefined) {
    return new Error(
      `embedded store in use by another process, which holds ${file} without naming itself. ${ONE_PROCESS}`,
    );
  }
  const { pid, host, since } = holder;
  return new Error(
    `embedded store in use by process ${pid} on host ${host} since ${since} (${file}). ${ONE_PROCESS} To check it: ps -p ${pid} -o args on ${host} (inside its container, if it runs in one). The lock ends with that process, however it ends.`,
  );
}
