import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, type Migration, migrate } from '../../src/store/migrate.ts';
import { openPgliteRunner } from '../../src/store/pglite-runner.ts';
import { openPostgresRunner } from '../../src/store/postgres-runner.ts';
import type { SqlRunner } from '../../src/store/sql-runner.ts';
import { unmigratedDataDir } from '#test/store-template.ts';
import { adminQuery, postgresHarness, TEST_DATABASE_URL } from './harness.ts';
import { UPGRADE_TIMEOUT_MS } from './upgrade.ts';
import { postgresTitle } from '#test/postgres-only.ts';

interface RunnerFixture {
  runner: SqlRunner;
  dispose(): Promise<void>;
}

/** A PGlite cluster no migration touched, copied from the run's template rather than initdb'd again. */
async function pgliteFixture(): Promise<RunnerFixture> {
  const dir = await unmigratedDataDir('tg-runner-');
  const runner = await openPgliteRunner(dir);
  return {
    runner,
    async dispose() {
      await runner.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresFixture(url: string): Promise<RunnerFixture> {
  const harness = await postgresHarness(url);
  const runner = await openPostgresRunner({ databaseUrl: url, schema: harness.schema }, () => undefined);
  return {
    runner,
    async dispose() {
      await runner.close();
      await harness.dispose();
    },
  };
}

const broken: Migration[] = [
  { version: 1, name: 'good', sql: 'CREATE TABLE good (id int); INSERT INTO good VALUES (1);' },
  { version: 2, name: 'bad', sql: 'CREATE TABLE bad (id int); SELECT no_such_function();' },
];

function runnerSuite(open: () => Promise<RunnerFixture>): void {
  let fixture: RunnerFixture;
  beforeAll(async () => {
    fixture = await open();
  });
  afterAll(() => fixture?.dispose());

  it('commits a transaction whose work resolves and rolls back one whose work throws', async () => {
    const { runner } = fixture;
    await runner.exec('CREATE TABLE t (v int); INSERT INTO t VALUES (1);');
    await runner.transaction((tx) => tx.query('INSERT INTO t VALUES ($1)', [2]));
    const failing = runner.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES ($1)', [3]);
      throw new Error('abort');
    });
    await expect(failing).rejects.toThrow('abort');
    expect(await runner.query<{ v: number }>('SELECT v FROM t ORDER BY v')).toEqual([{ v: 1 }, { v: 2 }]);
  });

  it('applies nothing of a migration run in which one migration fails', async () => {
    const { runner } = fixture;
    await expect(migrate(runner, broken, 0)).rejects.toThrow();
    const tables = await runner.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('good', 'bad', 'schema_migrations') AND table_schema = current_schema()",
    );
    expect(tables).toEqual([{ n: 0 }]);
  });

  // Opens a second store: PGlite's start, and every migration, took over 20 s under a loaded run.
  it('keeps only the newest next signing key when upgrading a database that holds several', {
    timeout: UPGRADE_TIMEOUT_MS,
  }, async () => {
    const upgrading = await open();
    try {
      const { runner } = upgrading;
      const migrations = await loadMigrations();
      await migrate(
        runner,
        migrations.filter((m) => m.version <= 2),
        0,
      );
      for (const [kid, createdAt] of [
        ['older', 1000],
        ['newest', 3000],
        ['old', 2000],
      ] as const) {
        await runner.query(
          `INSERT INTO signing_keys (kid, alg, status, public_jwk, private_key, created_at) VALUES ($1, 'RS256', 'next', '{}', '{}', $2)`,
          [kid, createdAt],
        );
      }
      expect(await migrate(runner, migrations, 0)).toEqual(
        migrations.filter((m) => m.version > 2).map((m) => m.version),
      );
      const keys = await runner.query<{ kid: string; status: string; retired: boolean }>(
        'SELECT kid, status, retired_at IS NOT NULL AS retired FROM signing_keys ORDER BY kid',
      );
      expect(keys).toEqual([
        { kid: 'newest', status: 'next', retired: false },
        { kid: 'old', status: 'retired', retired: true },
        { kid: 'older', status: 'retired', retired: true },
      ]);
    } finally {
      await upgrading.dispose();
    }
  });

  it('applies pending migrations in order and then nothing on the next run', async () => {
    const { runner } = fixture;
    const migrations = await loadMigrations();
    expect(await migrate(runner, migrations, 0)).toEqual(migrations.map((m) => m.version));
    expect(await migrate(runner, migrations, 0)).toEqual([]);
  });
}

describe('migration files', () => {
  it('are numbered 1, 2, 3 … without gaps', async () => {
    const versions = (await loadMigrations()).map((m) => m.version);
    expect(versions.length).toBeGreaterThan(0);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });
});

describe('PGlite runner', () => runnerSuite(pgliteFixture));

describe.skipIf(!TEST_DATABASE_URL)(postgresTitle('PostgreSQL runner'), () => {
  runnerSuite(() => postgresFixture(TEST_DATABASE_URL!));

  it('leaves no test schema behind once disposed', async () => {
    const fixture = await postgresFixture(TEST_DATABASE_URL!);
    const [row] = await fixture.runner.query<{ schema: string }>('SELECT current_schema() AS schema');
    await fixture.dispose();
    expect(
      await adminQuery(TEST_DATABASE_URL!, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [row?.schema]),
    ).toEqual([]);
  });
});
