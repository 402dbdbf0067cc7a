import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { type Clock, createLogger, type Logger } from '#common';
import { openStore, type Store } from '#store';
import { migratedDataDir } from '#test/store-template.ts';

/** A place a store lives (temp dir or private schema) that can be opened again and again. */
export interface StoreHarness {
  readonly label: string;
  /** PostgreSQL: the private schema. */
  readonly schema?: string;
  open(clock: Clock, log?: Logger): Promise<Store>;
  /**
   * Everything a reader of the database gets, as text: embedded, every file under DATA_DIR (the
   * store must be closed, so all is on disk); PostgreSQL, every row of every table of the schema.
   */
  dump(): Promise<string>;
  dispose(): Promise<void>;
}

/**
 * A DATA_DIR holding the run's migrated store (store-template.ts): the cases are about what the
 * store does once open; opening one from nothing is test/store/embedded-dir.test.ts's.
 */
export async function embeddedHarness(): Promise<StoreHarness> {
  const dataDir = await migratedDataDir('tg-store-', { sample: false });
  return {
    label: 'embedded',
    open: (clock, log) => openStore({ dataDir, clock }, log),
    dump: () => readTree(dataDir),
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** Each harness gets its own schema, dropped on dispose, so test files never share rows. */
export async function postgresHarness(databaseUrl: string): Promise<StoreHarness> {
  const schema = 'tg_test_' + randomBytes(6).toString('hex');
  return {
    label: `postgres (${schema})`,
    schema,
    open: (clock, log) => openStore({ dataDir: '/nonexistent', databaseUrl, schema, clock }, log),
    dump: () => dumpSchema(databaseUrl, schema),
    dispose: async () => void (await adminQuery(databaseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
  };
}

/**
 * Every file below `dir`, concatenated (latin1, so any byte sequence survives). Not `db.lock`, which
 * is empty: closing a descriptor of it would drop the lock this process holds (dir-lock.ts).
 */
async function readTree(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name !== 'db.lock')
    .map((entry) => join(entry.parentPath, entry.name));
  return (await Promise.all(files.map((file) => readFile(file, 'latin1')))).join('\n');
}

async function dumpSchema(databaseUrl: string, schema: string): Promise<string> {
  const tables = await adminQuery(
    databaseUrl,
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
    [schema],
  );
  const rows = await Promise.all(
    tables.map((t) => adminQuery(databaseUrl, `SELECT row_to_json(r)::text AS row FROM ${schema}."${t.table_name}" r`)),
  );
  return rows
    .flat()
    .map((r) => r.row)
    .join('\n');
}

export async function adminQuery(
  databaseUrl: string,
  sql: string,
  params: unknown[] = [],
): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

export interface FakeClock extends Clock {
  set(ms: number): void;
}

export function fakeClock(startMs: number): FakeClock {
  let now = startMs;
  return {
    now: () => now,
    set(ms) {
      now = ms;
    },
  };
}

/** A logger whose JSON lines land in an array, to assert on what the store logged. */
export function captureLogger(): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: createLogger({ level: 'info', destination }), lines };
}

/** Resolves on the next call of a store's onRevocation listener. */
export function nextRevocationSignal(store: Store): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = store.onRevocation(() => {
      unsubscribe();
      resolve();
    });
  });
}
