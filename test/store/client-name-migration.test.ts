import { describe, expect, it } from 'vitest';
import type { Store } from '#store';
import { loadMigrations, migrate } from '../../src/store/migrate.ts';
import type { SqlRunner } from '../../src/store/sql-runner.ts';
import { fakeClock, TEST_DATABASE_URL } from './harness.ts';
import { UPGRADE_TIMEOUT_MS, upgradeEmbedded, upgradePostgres } from './upgrade.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const clock = fakeClock(1_800_000_000_000);
const id = (letter: string) => `cli_${letter.repeat(22)}`;

/** A database as the version before unique client names left it: one project holding duplicates. */
async function seedDuplicates(runner: SqlRunner): Promise<void> {
  const before = (await loadMigrations()).filter((m) => m.version < 5);
  await migrate(runner, before, clock.now());
  await runner.exec(`
    INSERT INTO projects (id, name, plan, created_at) VALUES
      ('prj_dupes', 'dupes', 'business', 1), ('prj_other', 'other', 'business', 1);
    INSERT INTO oauth_clients (client_id, project_id, name, scopes, enabled, secret_hash, created_at) VALUES
      ('${id('c')}', 'prj_dupes', 'BILLING', ARRAY['email'], true, 'h', 3),
      ('${id('a')}', 'prj_dupes', 'Billing', ARRAY['email'], true, 'h', 1),
      ('${id('b')}', 'prj_dupes', 'billing ', ARRAY['email'], true, 'h', 2),
      ('${id('d')}', 'prj_dupes', 'Reports', ARRAY['email'], true, 'h', 4),
      ('${id('e')}', 'prj_other', 'billing', ARRAY['email'], true, 'h', 5);
  `);
}

async function expectRenamedOnOpen(store: Store): Promise<void> {
  const names = async (projectId: string) =>
    Object.fromEntries((await store.listClients(projectId)).map((c) => [c.clientId, c.name]));
  expect(await names('prj_dupes')).toEqual({
    [id('a')]: 'Billing',
    [id('b')]: `billing (${id('b')})`,
    [id('c')]: `BILLING (${id('c')})`,
    [id('d')]: 'Reports',
  });
  expect(await names('prj_other')).toEqual({ [id('e')]: 'billing' });
  await expect(
    store.createClient({ projectId: 'prj_dupes', name: 'billing', scopes: ['email'], secretHash: 'h' }),
  ).rejects.toMatchObject({ code: 'client_name_taken' });
}

describe('upgrading a store whose projects hold clients of the same name', () => {
  it('keeps the oldest name and appends the client id to each later one (embedded)', {
    timeout: UPGRADE_TIMEOUT_MS,
  }, async () => {
    await upgradeEmbedded(clock, seedDuplicates, expectRenamedOnOpen);
  });

  it.skipIf(!TEST_DATABASE_URL)(
    postgresTitle('keeps the oldest name and appends the client id to each later one (PostgreSQL)'),
    async () => {
      await upgradePostgres(clock, seedDuplicates, expectRenamedOnOpen);
    },
  );
});
