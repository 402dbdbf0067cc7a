import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ensurePrivateDirectory, type Logger } from '#common';
import { lockDirectory } from './dir-lock.ts';
import type { SqlRunner } from './sql-runner.ts';

/**
 * PGlite keeps its files under `<dataDir>/db`, locked against a second user (dir-lock.ts). Both
 * directories are kept 0700: PGlite's own files are world-readable and writable.
 */
export async function openPgliteRunner(dataDir: string, log?: Logger): Promise<SqlRunner> {
  const dir = resolve(dataDir, 'db');
  await ensurePrivateDirectory(dataDir, 'DATA_DIR', log);
  await ensurePrivateDirectory(dir, 'DATA_DIR/db', log);
  const unlock = await lockDirectory(dir);
  try {
    const db = await PGlite.create(dir);
    return pgliteRunner(db, unlock);
  } catch (error) {
    await unlock();
    throw error;
  }
}

function pgliteRunner(db: PGlite, release: () => Promise<void>): SqlRunner {
  let closed: Promise<void> | null = null;
  return {
    query: (sql, params) => run(db, sql, params),
    exec: async (sql) => void (await db.exec(sql)),
    transaction: (work) =>
      db.transaction((tx) =>
        work({ query: (sql, params) => run(tx, sql, params), exec: async (sql) => void (await tx.exec(sql)) }),
      ),
    close() {
      closed ??= db.close().finally(release);
      return closed;
    },
  };
}

async function run<Row>(db: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]): Promise<Row[]> {
  const result = await db.query<Row>(sql, params ? [...params] : []);
  return result.rows;
}
