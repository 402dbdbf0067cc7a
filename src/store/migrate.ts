import { readdir, readFile } from 'node:fs/promises';
import { MIGRATION_LOCK_KEY, type Queryable, type SqlRunner } from './sql-runner.ts';

/**
 * Versioned migrations: `migrations/NNN_name.sql`, applied in order at start, all in one
 * transaction, each recorded in `schema_migrations`. An advisory lock makes replicas that
 * start together on one PostgreSQL apply them once.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
const FILE_NAME = /^(\d{3})_([a-z0-9_]+)\.sql$/;

export async function loadMigrations(): Promise<Migration[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((file) => FILE_NAME.test(file)).sort();
  return Promise.all(
    files.map(async (file) => {
      const [, version, name] = FILE_NAME.exec(file) ?? [];
      return {
        version: Number(version),
        name: name ?? file,
        sql: await readFile(new URL(file, MIGRATIONS_DIR), 'utf8'),
      };
    }),
  );
}

/** Applies the migrations not yet recorded; returns the versions it applied (empty when current). */
export async function migrate(runner: SqlRunner, migrations: Migration[], nowMs: number): Promise<number[]> {
  return runner.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
    );
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version),
    );
    const pending = migrations.filter((m) => !done.has(m.version));
    for (const migration of pending) await apply(tx, migration, nowMs);
    return pending.map((m) => m.version);
  });
}

async function apply(tx: Queryable, migration: Migration, nowMs: number): Promise<void> {
  await tx.exec(migration.sql);
  await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
    migration.version,
    migration.name,
    nowMs,
  ]);
}
