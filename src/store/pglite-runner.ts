import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SqlRunner } from './sql-runner.ts';

/**
 * PGlite keeps its files under `<dataDir>/db`. It runs in this process, single-user: two
 * instances on one directory would corrupt it, so a second open in this process is refused
 * until the first is closed.
 */
const openDirs = new Set<string>();

export async function openPgliteRunner(dataDir: string): Promise<SqlRunner> {
  const dir = resolve(dataDir, 'db');
  if (openDirs.has(dir)) throw new Error(`embedded store already open in this process: ${dir}`);
  openDirs.add(dir);
  try {
    await mkdir(dir, { recursive: true });
    const db = await PGlite.create(dir);
    return pgliteRunner(db, () => openDirs.delete(dir));
  } catch (error) {
    openDirs.delete(dir);
    throw error;
  }
}

function pgliteRunner(db: PGlite, release: () => void): SqlRunner {
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
