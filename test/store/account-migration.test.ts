import { describe, expect, it } from 'vitest';
import type { Store } from '#store';
import { loadMigrations, migrate } from '../../src/store/migrate.ts';
import type { SqlRunner } from '../../src/store/sql-runner.ts';
import { fakeClock, TEST_DATABASE_URL } from './harness.ts';
import { upgradeEmbedded, upgradePostgres } from './upgrade.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const clock = fakeClock(1_800_000_000_000);
const CLIENT = `cli_${'c'.repeat(22)}`;

/** A database as the version before accounts left it: projects with plans of their own. */
async function seedProjects(runner: SqlRunner): Promise<void> {
  const before = (await loadMigrations()).filter((m) => m.version < 7);
  await migrate(runner, before, clock.now());
  await runner.exec(`
    INSERT INTO projects (id, name, plan, created_at) VALUES
      ('prj_AAAAAAAAAAAAAAAA', 'Acme', 'business', 10),
      ('prj_BBBBBBBBBBBBBBBB', 'Free one', 'free', 20);
    INSERT INTO oauth_clients (client_id, project_id, name, scopes, enabled, secret_hash, created_at) VALUES
      ('${CLIENT}', 'prj_AAAAAAAAAAAAAAAA', 'backend', ARRAY['email'], true, 'h', 11);
  `);
}

async function expectOneAccountPerProject(store: Store): Promise<void> {
  expect(await store.listAccounts()).toEqual([
    { id: 'acc_AAAAAAAAAAAAAAAA', name: 'Acme', plan: 'business', enabled: true, createdAt: 10 },
    { id: 'acc_BBBBBBBBBBBBBBBB', name: 'Free one', plan: 'free', enabled: true, createdAt: 20 },
  ]);
  expect(await store.getProject('prj_AAAAAAAAAAAAAAAA')).toEqual({
    id: 'prj_AAAAAAAAAAAAAAAA',
    name: 'Acme',
    plan: 'business',
    accountId: 'acc_AAAAAAAAAAAAAAAA',
    accountEnabled: true,
    createdAt: 10,
  });
  expect(await store.getClient(CLIENT)).toMatchObject({ projectId: 'prj_AAAAAAAAAAAAAAAA', enabled: true });
  // The plan now lives on the account only: changing it moves the project.
  await store.updateAccount('acc_BBBBBBBBBBBBBBBB', { plan: 'enterprise' });
  expect(await store.getProject('prj_BBBBBBBBBBBBBBBB')).toMatchObject({ plan: 'enterprise' });
}

describe('upgrading a store whose projects had plans of their own (migration 007)', () => {
  // PGlite starts twice (seed, then open): 5 s idle, over 30 s on a loaded two-core machine.
  it('gives each project an account of its own with its name, plan and creation time (embedded)', async () => {
    await upgradeEmbedded(clock, seedProjects, expectOneAccountPerProject);
  }, 120_000);

  it.skipIf(!TEST_DATABASE_URL)(
    postgresTitle('gives each project an account of its own with its name, plan and creation time (PostgreSQL)'),
    async () => {
      await upgradePostgres(clock, seedProjects, expectOneAccountPerProject);
    },
    120_000,
  );
});
