import { rm } from 'node:fs/promises';
import { openStore, type Store } from '#store';
import { unmigratedDataDir } from '#test/store-template.ts';
import { openPgliteRunner } from '../../src/store/pglite-runner.ts';
import { openPostgresRunner } from '../../src/store/postgres-runner.ts';
import type { SqlRunner } from '../../src/store/sql-runner.ts';
import { type FakeClock, postgresHarness, TEST_DATABASE_URL } from './harness.ts';

/**
 * An embedded upgrade opens PGlite twice (seed, then the store): over 20 s on a busy CI run when
 * each test also ran initdb (account-migration.test.ts); the first test of a run may still wait
 * for the run's initdb template (store-template.ts).
 */
export const UPGRADE_TIMEOUT_MS = 120_000;

type Seed = (runner: SqlRunner) => Promise<void>;
type Check = (store: Store) => Promise<void>;

/**
 * An upgrade of the embedded store: `seed` writes a database as an older version left it, then
 * the store opens it (running the migrations since) and `check` looks at the result.
 */
export async function upgradeEmbedded(clock: FakeClock, seed: Seed, check: Check): Promise<void> {
  // An initdb'd cluster no migration touched: `seed` migrates it to the version it needs.
  const dataDir = await unmigratedDataDir('tg-upgrade-');
  try {
    const runner = await openPgliteRunner(dataDir);
    await seed(runner);
    await runner.close();
    const store = await openStore({ dataDir, clock });
    try {
      await check(store);
    } finally {
      await store.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The same upgrade on PostgreSQL (TEST_DATABASE_URL), in a schema of its own. */
export async function upgradePostgres(clock: FakeClock, seed: Seed, check: Check): Promise<void> {
  const databaseUrl = TEST_DATABASE_URL ?? '';
  const harness = await postgresHarness(databaseUrl);
  try {
    const runner = await openPostgresRunner({ databaseUrl, schema: harness.schema }, () => undefined);
    await seed(runner);
    await runner.close();
    const store = await harness.open(clock);
    try {
      await check(store);
    } finally {
      await store.close();
    }
  } finally {
    await harness.dispose();
  }
}
